// SHA-256 of a text in one call: the one-shot form costs about half of createHash().update().digest()
// for the short texts hashed on every request (API keys, cache keys).
import { hash } from 'node:crypto';

export function sha256(text: string, encoding: 'hex' | 'base64url'): string {
  return hash('sha256', text, encoding);
}
