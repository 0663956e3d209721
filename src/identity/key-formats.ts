// What each surface's API key looks like. The prefix tells the surface apart before any lookup, so a
// key sent to the wrong surface gets a precise 401 without touching the store.
import type { KeySurface } from '../store/schema.js';
import { hashToken, randomHex } from './tokens.js';

interface KeyFormat {
  readonly label: string;
  /** The part before the secret. */
  readonly lead: string;
  readonly pattern: RegExp;
  readonly example: string;
}

// Every secret is 64 hex characters: 256 bits from the system's CSPRNG.
export const KEY_FORMATS: Record<KeySurface, KeyFormat> = {
  question: { label: 'question key', lead: 'svc_sk_', pattern: /^svc_sk_[0-9a-f]{64}$/, example: 'svc_sk_…' },
  structured: { label: 'structured API key', lead: 'svc_api_', pattern: /^svc_api_[0-9a-f]{64}$/, example: 'svc_api_…' },
  workspace: { label: 'workspace key', lead: 'svc_', pattern: /^svc_[0-9a-f]{64}$/, example: 'svc_ followed by 64 hex characters' },
};

/** Characters of the secret shown after the lead: enough to tell keys apart, far too few to guess from. */
const SHOWN_SECRET_CHARS = 8;

export interface IssuedKey {
  readonly value: string;
  readonly prefix: string;
  readonly secretHash: string;
}

export function issueKey(surface: KeySurface): IssuedKey {
  const { lead } = KEY_FORMATS[surface];
  const secret = randomHex(32);
  const value = `${lead}${secret}`;
  return { value, prefix: `${lead}${secret.slice(0, SHOWN_SECRET_CHARS)}`, secretHash: hashToken(value) };
}

/** The surface whose format the value has, or undefined for a malformed value. */
export function surfaceOfKey(value: string): KeySurface | undefined {
  // Order matters only for readability: the three patterns are disjoint.
  return (Object.keys(KEY_FORMATS) as KeySurface[]).find((surface) => KEY_FORMATS[surface].pattern.test(value));
}
