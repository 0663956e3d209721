// What a credential looks like inside a URL or a line of text, so that none is ever written to a log
// and none is accepted from a URL. Our own secrets have known shapes (keys, OAuth codes and tokens: a
// lead and 64 hex characters; session tokens: 43 base64url characters), recognised whatever a parameter is called;
// other people's credentials are recognised by the usual parameter names (api_key, access_token, …).
import { KEY_FORMATS } from './key-formats.js';
import { OAUTH_SECRET_LEADS } from './oauth/token-formats.js';

export const REDACTED = '[redacted]';

// Leads longest first (svc_api_, svc_oat_, …, svc_sk_, svc_): API keys' and OAuth codes' and tokens'.
// More hex than the 8 characters of the prefix that the console shows means part of a secret; a
// truncated or mistyped key is still treated as one.
const leads = [...Object.values(KEY_FORMATS).map((format) => format.lead), ...Object.values(OAUTH_SECRET_LEADS)].sort(
  (a, b) => b.length - a.length,
);
const KEY_SOURCE = `(?:${leads.join('|')})[0-9a-f]{9,}`;
const KEY_SHAPE = new RegExp(KEY_SOURCE, 'i');
const KEY_SHAPES = new RegExp(KEY_SOURCE, 'gi');

/** A session token is randomUrlToken(32): 32 random bytes in base64url, 43 characters. */
const SESSION_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Parameter names that carry a credential, compared in lower case without separators: api_key, apiKey,
 * x-api-key, access_token, client_secret, password, svc_session, sig… A name that merely ends the same
 * way is redacted too: in a log, too much is harmless.
 */
const CREDENTIAL_NAME = /(key|token|secret|password|passwd|pwd|auth|authorization|bearer|session|sessionid|signature|sig|credentials?|jwt)$/;

/** Names under which clients commonly send an API key in a URL; refused on key routes whatever the value. */
const KEY_PARAMETER_NAMES = new Set(['apikey', 'key', 'token', 'accesstoken', 'auth', 'authorization', 'bearer']);

/** What makes a URL's parts differ from its text: a query string, %-escapes, '+' (read as a space). */
const PATH_NEEDS_READING = /[?%+]/;

const normalisedName = (name: string) => decode(name).toLowerCase().replace(/[^a-z0-9]/g, '');

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

export function containsKey(text: string): boolean {
  return KEY_SHAPE.test(text);
}

/** Free text (a message, a stack) with every key-shaped run replaced. */
export function redactKeys(text: string): string {
  return text.replace(KEY_SHAPES, REDACTED);
}

interface QueryPair {
  readonly raw: string;
  readonly name: string;
  readonly value: string | undefined;
}

function splitUrl(url: string): { segments: string[]; pairs: QueryPair[] | undefined } {
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const pairs =
    mark === -1
      ? undefined
      : url
          .slice(mark + 1)
          .split('&')
          .map((raw) => {
            const eq = raw.indexOf('=');
            return eq === -1 ? { raw, name: raw, value: undefined } : { raw, name: raw.slice(0, eq), value: raw.slice(eq + 1) };
          });
  return { segments: path.split('/'), pairs };
}

function isSecretPair(pair: QueryPair): boolean {
  if (pair.value === undefined) return containsKey(decode(pair.name)) || SESSION_TOKEN_SHAPE.test(decode(pair.name));
  const value = decode(pair.value);
  return CREDENTIAL_NAME.test(normalisedName(pair.name)) || containsKey(value) || SESSION_TOKEN_SHAPE.test(value);
}

/**
 * The URL as it may be logged: the value of every credential-looking query parameter, and every path
 * segment holding a key, replaced. Everything else is kept as sent, for debugging.
 */
export function redactUrl(url: string): string {
  const { segments, pairs } = splitUrl(url);
  const path = segments.map((segment) => (containsKey(decode(segment)) ? REDACTED : segment)).join('/');
  if (!pairs) return path;
  const query = pairs.map((pair) => {
    if (!isSecretPair(pair)) return pair.raw;
    return pair.value === undefined ? REDACTED : `${pair.name}=${REDACTED}`;
  });
  return `${path}?${query.join('&')}`;
}

/** Where a URL carries an API key, in words for an error message; undefined when it does not. */
export function keyInUrl(url: string): string | undefined {
  // Without a query string, escapes or '+', every segment reads as written: a key in one of them is a
  // key in the whole path, so one test of the path answers for all (the path of nearly every request).
  if (!PATH_NEEDS_READING.test(url)) return containsKey(url) ? 'the key from the path' : undefined;
  const { segments, pairs } = splitUrl(url);
  for (const pair of pairs ?? []) {
    const name = decode(pair.name);
    if (containsKey(name)) return 'the key from the query string';
    if (KEY_PARAMETER_NAMES.has(normalisedName(pair.name)) || containsKey(decode(pair.value ?? ''))) {
      return `the query parameter '${name.slice(0, 40)}'`;
    }
  }
  return segments.some((segment) => containsKey(decode(segment))) ? 'the key from the path' : undefined;
}
