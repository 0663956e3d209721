import { describe, expect, it } from 'vitest';
import { containsKey, keyInUrl, redactKeys, redactUrl } from './credential-shapes.js';
import { issueKey } from './key-formats.js';
import { issueOauthSecret } from './oauth/token-formats.js';
import { randomUrlToken } from './tokens.js';

const question = issueKey('question').value;
const workspace = issueKey('workspace').value;
const structured = issueKey('structured').value;
const session = randomUrlToken(32);

describe('redactUrl', () => {
  it('keeps a URL without credentials exactly as sent', () => {
    for (const url of ['/api/v1/ask', '/v1/nodes?tags=a%2Cb&connection=warehouse', '/api/studio/history?limit=5&cursor=abc', '/x?flag', '/x?']) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('redacts credential-looking parameters by name, whatever their value', () => {
    expect(redactUrl('/x?api_key=abc&tags=a')).toBe('/x?api_key=[redacted]&tags=a');
    for (const name of ['api_key', 'apiKey', 'x-api-key', 'key', 'token', 'access_token', 'password', 'client_secret', 'svc_session', 'sig', 'Authorization', 'api%5Fkey']) {
      expect(redactUrl(`/x?${name}=hunter2`)).toBe(`/x?${name}=[redacted]`);
    }
  });

  it("redacts a value shaped like one of our keys or a session token, whatever the parameter's name", () => {
    for (const value of [question, workspace, structured, session, `Bearer%20${question}`, encodeURIComponent(question).replace('s', '%73'), question.slice(0, 30)]) {
      const redacted = redactUrl(`/api/v1/ask?q=1&whatever=${value}&page=2`);
      expect(redacted).toBe('/api/v1/ask?q=1&whatever=[redacted]&page=2');
    }
    expect(redactUrl(`/x?${question}`)).toBe('/x?[redacted]');
  });

  it('redacts a key in the path', () => {
    expect(redactUrl(`/api/v1/metrics/${question}?a=1`)).toBe('/api/v1/metrics/[redacted]?a=1');
  });

  it("does not mistake the console's displayed prefix (8 hex characters) for a key", () => {
    expect(redactUrl('/x?search=svc_sk_1a2b3c4d')).toBe('/x?search=svc_sk_1a2b3c4d');
    expect(containsKey('svc_sk_1a2b3c4d')).toBe(false);
    expect(containsKey('svc_sk_1a2b3c4d5')).toBe(true);
  });
});

describe('redactKeys', () => {
  it('masks every key in free text and keeps the rest', () => {
    expect(redactKeys(`No route for GET /api/v1/${workspace} (and ${structured})`)).toBe('No route for GET /api/v1/[redacted] (and [redacted])');
  });
});

describe('OAuth codes and tokens', () => {
  const oauth = (['code', 'access', 'refresh'] as const).map((kind) => issueOauthSecret(kind).value);

  it('are recognised and redacted like keys, in text, in a path and in any query parameter', () => {
    for (const value of oauth) {
      expect(containsKey(value)).toBe(true);
      expect(redactKeys(`refused ${value} twice`)).toBe('refused [redacted] twice');
      expect(redactUrl(`/x/${value}?q=${value}&page=2`)).toBe('/x/[redacted]?q=[redacted]&page=2');
      expect(keyInUrl(`/mcp?q=${value}`)).toBe("the query parameter 'q'");
    }
  });
});

describe('keyInUrl', () => {
  it('names the parameter that carries a key, never the key itself', () => {
    expect(keyInUrl(`/api/v1/ask?api_key=${question}`)).toBe("the query parameter 'api_key'");
    expect(keyInUrl('/api/v1/ask?access_token=anything')).toBe("the query parameter 'access_token'");
    expect(keyInUrl(`/api/v1/ask?q=${workspace}`)).toBe("the query parameter 'q'");
    expect(keyInUrl(`/api/v1/ask?${question}`)).toBe('the key from the query string');
    expect(keyInUrl(`/api/v1/metrics/${question}`)).toBe('the key from the path');
  });

  it('finds a key in a path however the path is written, escaped or not', () => {
    const escaped = structured.replace(/[0-9a-f]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
    expect(keyInUrl(`/v1/nodes/${structured}`)).toBe('the key from the path');
    expect(keyInUrl(`/v1/nodes/x${workspace}y/fields`)).toBe('the key from the path');
    expect(keyInUrl(`/v1/nodes/${escaped}`)).toBe('the key from the path');
    expect(keyInUrl(`/v1/nodes/${escaped}?limit=5`)).toBe('the key from the path');
    expect(keyInUrl(`/v1/nodes/${structured.slice(0, 12)}/${structured.slice(12)}`)).toBeUndefined();
    expect(keyInUrl('/v1/nodes/orders%2Fitems')).toBeUndefined();
  });

  it('lets ordinary query strings through', () => {
    expect(keyInUrl('/v1/nodes?tags=key,token&connection=warehouse')).toBeUndefined();
    expect(keyInUrl('/v1/nodes')).toBeUndefined();
  });
});
