// Plain HTTP sent to the HTTPS port. A TLS connection opens with a handshake record, whose first byte
// is 0x16; an HTTP/1 request opens with its method name in ASCII. The listener looks at that first byte:
// TLS goes on to the HTTPS server untouched, and plain HTTP gets an answer instead of a dropped
// connection (which clients report as an empty reply, telling the user nothing):
// - a browser navigating (GET or HEAD that asks for HTML and carries no Authorization header) is sent
//   to the same address over HTTPS with 307, as someone typing http://host:3000 expects. Temporary on
//   purpose: browsers keep a permanent redirect, which would outlive a later switch to TLS=off;
// - anything else, API clients above all, gets 403 {"error": "HTTPS is required…", "code":
//   "https_required"} and no redirect: a client that sent a key in clear must see an error, not follow
//   quietly to HTTPS and carry on as if nothing had crossed the network unencrypted.
// The connection is closed after the answer. A connection silent for FIRST_BYTE_TIMEOUT_MS is closed.
import http from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';

const TLS_HANDSHAKE_RECORD = 0x16;
const FIRST_BYTE_TIMEOUT_MS = 10_000;
/** A Host header worth sending a browser back to: a name or an IPv4/IPv6 address, and a port. */
const HOST_HEADER = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/**
 * Makes `server` (the HTTPS server, before it listens) answer plain HTTP on its own port. The TLS
 * server's connection listeners are taken over and called only for connections that start with TLS.
 */
export function answerPlainHttpOnTlsPort(server: NetServer): void {
  const tlsListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const plain = http.createServer({ maxHeaderSize: 16_384 }, answerPlainRequest);
  plain.on('clientError', (_error, socket: Socket) => socket.destroy());

  server.on('connection', (socket: Socket) => {
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy()); // a reset before the first byte must not go unhandled
    socket.once('data', (first: Buffer) => {
      socket.pause();
      // Give the byte back: both servers read the connection from its very start.
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE_RECORD) {
        socket.setTimeout(0); // the HTTPS server has its own handshake and request time-outs
        // The TLS socket reads what is buffered here itself, then the connection's handle.
        for (const listener of tlsListeners) listener.call(server, socket);
      } else {
        plain.emit('connection', socket);
        socket.resume();
      }
    });
  });
}

function answerPlainRequest(request: http.IncomingMessage, response: http.ServerResponse): void {
  const target = httpsUrl(request);
  const navigating =
    (request.method === 'GET' || request.method === 'HEAD') && /\btext\/html\b/.test(request.headers.accept ?? '') && !request.headers.authorization;
  response.shouldKeepAlive = false;
  if (navigating && target) {
    response.writeHead(307, { location: target, 'cache-control': 'no-store', 'content-length': 0 }).end();
    return;
  }
  const error = `HTTPS is required: this port serves HTTPS only${target ? `; use ${target}` : ''}`;
  const body = JSON.stringify({ error, code: 'https_required' });
  response.writeHead(403, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** The request's own address over HTTPS, on the port the client reached (HTTPS and HTTP share it). */
function httpsUrl(request: http.IncomingMessage): string | undefined {
  const host = request.headers.host ?? '';
  const match = HOST_HEADER.exec(host);
  if (!match) return undefined;
  const withPort = match[1] ? host : `${host}:80`;
  // Only a plain path goes into Location: anything else (absolute form, odd bytes) is sent to the root.
  const path = /^\/[\x21-\x7e]*$/.test(request.url ?? '') ? request.url! : '/';
  return `https://${withPort}${path}`;
}
