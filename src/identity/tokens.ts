// Secrets handed to clients (API keys, session tokens) and how they are kept: only a SHA-256 of the
// whole value is stored. A fast hash is right here because every secret carries 256 random bits:
// unlike a password there is nothing to guess, so slowing the hash would only slow every request.
import { randomBytes } from 'node:crypto';
import { sha256 } from '../crypto/digest.js';

export function randomHex(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}

export function randomUrlToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function hashToken(value: string): string {
  return sha256(value, 'hex');
}
