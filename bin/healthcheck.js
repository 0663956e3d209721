#!/usr/bin/env node
// Container health check: GET /healthz on this instance, over TLS or not as the service is set up.
// The certificate is not verified here: the check is about the process, on loopback.
import http from 'node:http';
import https from 'node:https';

const tls = (process.env.TLS ?? 'on') !== 'off';
const client = tls ? https : http;
const request = client.get(
  { host: '127.0.0.1', port: Number(process.env.PORT ?? 3000), path: '/healthz', rejectUnauthorized: false, timeout: 3000 },
  (response) => process.exit(response.statusCode === 200 ? 0 : 1),
);
request.on('error', () => process.exit(1));
request.on('timeout', () => process.exit(1));
