import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and never seals the same text the same way', () => {
    const a = box.seal('p@ssw0rd: é ✓');
    const b = box.seal('p@ssw0rd: é ✓');
    expect(a).not.toBe(b);
    expect(a).not.toContain('p@ssw0rd');
    expect(box.open(a)).toBe('p@ssw0rd: é ✓');
  });

  it('refuses text sealed under another key, or altered', () => {
    const sealed = box.seal('secret');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    const [v, iv, tag, body] = sealed.split(':');
    const flipped = Buffer.from(body!, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64')].join(':'))).toThrow();
    expect(() => box.open('plain text')).toThrow(/Not a sealed secret/);
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
