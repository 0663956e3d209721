// No credential sent in a URL reaches a log line, on any path a request can take (success, 400, 401,
// 404, 500), and key routes refuse a key in the URL with a 400 that says where keys go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, seedWorkspace, signIn, startTestApp, type TestApp } from './helpers/app.js';
import { captureLogs } from './helpers/log-capture.js';
import { codeFor, exchange, listen, type Tokens } from './helpers/oauth-flow.js';
import { PROBES } from './helpers/probe-routes.js';

const { logger, lines } = captureLogs('trace');
let t: TestApp;
let keys: { question: string; workspace: string; structured: string };
let cookie: string;
let sessionToken: string;
const HTTPS = { 'x-forwarded-proto': 'https' };

beforeAll(async () => {
  t = await startTestApp({ logger, env: { TRUST_PROXY: 'true' } });
  const ws = await seedWorkspace(t.services);
  keys = {
    question: (await createKey(t.services, ws, 'luminary', 'question')).value,
    workspace: (await createKey(t.services, ws, 'luminary', 'workspace')).value,
    structured: (await createKey(t.services, ws, 'luminary', 'structured')).value,
  };
  cookie = await signIn(t.app, ws.members.luminary.email);
  sessionToken = cookie.split('=')[1]!;
});
afterAll(() => t.close());

/** Every secret, and the part of each key that makes it secret. */
function secrets(): string[] {
  const values = [...Object.values(keys), sessionToken];
  return [...values, ...Object.values(keys).map((key) => key.slice(-64))];
}

function expectNoSecretLogged() {
  const all = lines.join('');
  for (const secret of secrets()) expect(all, 'a credential reached the log').not.toContain(secret);
}

describe('credentials in URLs', () => {
  it('are redacted from request lines on success, 401, 404 and 500, whatever the parameter is called', async () => {
    const { question: a, workspace: b, structured: c } = keys;
    const answers = [
      await t.app.inject({ url: `/healthz?api_key=${a}&verbose=1` }),
      await t.app.inject({ url: `/api/auth/me?token=${b}&session=${sessionToken}`, headers: { cookie } }),
      await t.app.inject({ url: `/api/studio/probe?access_token=${c}` }),
      await t.app.inject({ url: `/api/auth/me?next=${sessionToken}` }),
      await t.app.inject({ url: `/api/v1/${a}?q=${b}` }),
      await t.app.inject({ url: `/nothing/${c}/here?password=hunter2` }),
      await t.app.inject({ url: `/probe/boom?key=${a}&page=${encodeURIComponent(`Bearer ${b}`)}` }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 401, 401, 404, 404, 500]);
    expectNoSecretLogged();
    const urls = lines.map((line) => JSON.parse(line)).flatMap((entry) => (entry.req?.url ? [entry.req.url as string] : []));
    // The request lines are there, with everything but the secrets.
    expect(urls).toEqual(
      expect.arrayContaining([
        '/healthz?api_key=[redacted]&verbose=1',
        '/api/auth/me?token=[redacted]&session=[redacted]',
        '/api/v1/[redacted]?q=[redacted]',
        '/nothing/[redacted]/here?password=[redacted]',
        '/probe/boom?key=[redacted]&page=[redacted]',
      ]),
    );
    expect(lines.join('')).not.toContain('hunter2');
  });

  it('are refused on key routes with a 400 that says where keys go, and never echoed', async () => {
    const cases: Array<[string, string]> = [
      [`${PROBES.question}?api_key=${keys.question}`, 'api_key'],
      [`${PROBES.workspace}?access_token=${keys.workspace}`, 'access_token'],
      [`${PROBES.structured}?q=${keys.structured}`, 'q'],
      [`${PROBES.structured}?key=whatever`, 'key'],
    ];
    for (const [url, parameter] of cases) {
      // Even beside a good Authorization header: the key has already travelled in the URL.
      const response = await t.app.inject({ url, headers: { ...HTTPS, authorization: `Bearer ${keys.structured}` } });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.code).toBe('key_in_url');
      expect(body.error).toContain("'Authorization: Bearer <key>'");
      expect(body.error).toContain(`query parameter '${parameter}'`);
      for (const secret of secrets()) expect(response.body).not.toContain(secret);
    }
    const inPath = await t.app.inject({ url: `/api/v1/metrics/${keys.question}`, headers: { authorization: `Bearer ${keys.question}` } });
    expect([inPath.statusCode, inPath.json().code]).toEqual([400, 'key_in_url']);
    // An ordinary query string is not mistaken for one.
    expect((await t.app.inject({ url: `${PROBES.structured}?tags=key,token`, headers: { authorization: `Bearer ${keys.structured}` } })).statusCode).toBe(200);
    expectNoSecretLogged();
  });

  it('a malformed body on a URL with a key: 400, nothing logged', async () => {
    const response = await t.app.inject({ method: 'POST', url: `/probe/echo?token=${keys.question}`, payload: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expectNoSecretLogged();
  });

  it('keys in error messages and stacks are masked too', () => {
    const error = new Error(`upstream refused ${keys.workspace}`);
    t.app.log.error({ err: error }, `while checking ${keys.structured}`);
    const last = JSON.parse(lines.at(-1)!);
    expect(last.msg).toBe('while checking [redacted]');
    expect(last.err.message).toBe('upstream refused [redacted]');
    expectNoSecretLogged();
  });
});

describe('OAuth codes and tokens', () => {
  it('never reach the log: not from the token endpoint, not from a URL, not from a refusal', async () => {
    const base = await listen(t);
    const cookieOf = await signIn(t.app, (await seedWorkspace(t.services)).members.viewer.email);
    const { clientId, code, pkce } = await codeFor(base, cookieOf, ['query']);
    const tokens = (await (await exchange(base, clientId, code, pkce.verifier)).json()) as Tokens;
    const replayed = await exchange(base, clientId, code, pkce.verifier);
    expect(replayed.status).toBe(400);
    const answers = [
      await t.app.inject({ url: `/healthz?q=${tokens.access_token}&r=${tokens.refresh_token}` }),
      await t.app.inject({ url: `/nothing/${tokens.access_token}?code=${code}` }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404]);
    t.app.log.error(`refused ${tokens.refresh_token} for ${code}`);
    const all = lines.join('');
    for (const secret of [code, tokens.access_token, tokens.refresh_token]) {
      expect(all, 'an OAuth secret reached the log').not.toContain(secret.slice(8));
    }
    expect(all).toContain('/healthz?q=[redacted]&r=[redacted]');
  });
});
