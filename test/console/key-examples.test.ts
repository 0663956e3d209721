// GET /api/keys/examples: what the Keys page prints "Try it" lines with. The certificate curl must trust
// is the one the server presents (the generated one in the data directory, or the configured one; none
// with TLS off), and the example query and question come from the workspace's live model: none when it
// has no node with a measure or no reveal. A session route: API keys are refused.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/db.js';
import { consoleRequest, createKey, openMigratedPglite, seedWorkspace, signIn, startTestApp, type TestApp } from '../helpers/app.js';

// One store for the apps of every configuration (each in a workspace of its own): migrated once.
let store: Store;
const apps: TestApp[] = [];
beforeAll(async () => {
  store = await openMigratedPglite();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await store.close();
});

async function examplesWith(env: Record<string, string>, deployed?: string) {
  const t = await startTestApp({ store, env });
  apps.push(t);
  const ws = await seedWorkspace(t.services);
  const cookie = await signIn(t.app, ws.members.viewer.email);
  if (deployed) {
    const editor = await signIn(t.app, ws.members.editor.email);
    const deploy = await consoleRequest(t.app, editor, 'POST', '/api/model/deploy', { project: 'p', files: [{ path: 'a.cml', content: deployed }] });
    expect(deploy.statusCode, deploy.body).toBe(200);
  }
  const response = await consoleRequest(t.app, cookie, 'GET', '/api/keys/examples');
  expect(response.statusCode, response.body).toBe(200);
  return { t, ws, body: response.json() };
}

const MODEL = `node visits {
  connection: warehouse
  table: web.visits
  dimension id { type: number  primary_key: true  hidden: true }
  dimension secret { type: string  hidden: true }
  dimension page { type: string }
  measure hidden_total { type: count  hidden: true }
  measure visit_count { type: count  label: "Visit count" }
}

reveal traffic {
  domain: web
  base: visits
  metric visits { label: "Visits"  measure: visits.visit_count }
}
`;

describe('GET /api/keys/examples', () => {
  it("names the data directory's certificate, and a query and a question over the live model", async () => {
    const { t, ws, body } = await examplesWith({ SVC_DATA_DIR: '/tmp/svc-examples-data' }, MODEL);
    expect(body).toEqual({
      ca_file: path.resolve('/tmp/svc-examples-data/tls/cert.pem'),
      structured_query: { node: 'visits', dimensions: ['page'], measures: ['visit_count'] },
      question: 'What is the total of visits?',
    });
    const key = (await createKey(t.services, ws, 'viewer', 'structured')).value;
    expect((await t.app.inject({ method: 'GET', url: '/api/keys/examples', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(401);
  });

  it('names the configured certificate, none with TLS off, and no example without a model', async () => {
    const configured = await examplesWith({ TLS_CERT_FILE: 'certs/server.pem', TLS_KEY_FILE: 'certs/server.key' });
    expect(configured.body).toEqual({ ca_file: path.resolve('certs/server.pem'), structured_query: null, question: null });
    const off = await examplesWith({ TLS: 'off' });
    expect(off.body.ca_file).toBeNull();
  });
});
