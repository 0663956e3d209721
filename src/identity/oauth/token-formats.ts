// What the secrets of OAuth look like: authorization codes, access tokens and refresh tokens, each with
// a lead of its own so that it is told apart from an API key (and from each other) before any lookup,
// and recognised by the log redaction (credential-shapes.ts) wherever it appears.
import { hashToken, randomHex } from '../tokens.js';

export const OAUTH_SECRET_LEADS = {
  code: 'svc_oac_',
  access: 'svc_oat_',
  refresh: 'svc_ort_',
} as const;

export type OauthSecretKind = keyof typeof OAUTH_SECRET_LEADS;

const PATTERNS: Record<OauthSecretKind, RegExp> = {
  code: /^svc_oac_[0-9a-f]{64}$/,
  access: /^svc_oat_[0-9a-f]{64}$/,
  refresh: /^svc_ort_[0-9a-f]{64}$/,
};

export interface IssuedSecret {
  readonly value: string;
  readonly hash: string;
}

/** A fresh secret of the kind: 256 bits from the system's CSPRNG after its lead; only the hash is kept. */
export function issueOauthSecret(kind: OauthSecretKind): IssuedSecret {
  const value = `${OAUTH_SECRET_LEADS[kind]}${randomHex(32)}`;
  return { value, hash: hashToken(value) };
}

export function isOauthSecret(kind: OauthSecretKind, value: string): boolean {
  return PATTERNS[kind].test(value);
}
