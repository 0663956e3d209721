// One client connection, from its first byte to its end: GSSENCRequest is declined; SSLRequest is
// answered 'S' and the socket becomes TLS with the service's certificate (or 'N' where TLS is off);
// CancelRequest cancels another connection's running statement; the start-up message names the user
// (informational) and the database (a project); the password is a structured key, asked in clear text,
// which TLS protects: plaintext connections are refused unless the operator allows them. Then the
// query phase (session.ts) until the client leaves, the connection idles too long or its key stops
// working.
import { randomInt } from 'node:crypto';
import type { Socket } from 'node:net';
import { TLSSocket, type SecureContext } from 'node:tls';
import {
  authenticationCleartextPassword,
  authenticationOk,
  backendKeyData,
  errorResponse,
  MessageWriter,
  parameterStatus,
  readyForQuery,
} from './protocol/backend-messages.js';
import { FrontendReader, PROTOCOL_3, ProtocolViolation, type FrontendMessage, type StartupMessage } from './protocol/frontend-messages.js';
import { MIRROR_SERVER_VERSION } from './catalog/mirror-setup.js';
import { FatalSqlStateError, INVALID_AUTHORIZATION_SPECIFICATION, PROTOCOL_VIOLATION } from '../core/sqlapi/sql-state-error.js';
import { QuerySession } from './session.js';
import { isSqlStateLike, type StatementHandler } from './statements.js';

/** What a connection is told about the server once it is in (ParameterStatus), besides what the handler adds. */
const SERVER_PARAMETERS: Record<string, string> = {
  // The catalog mirror's PostgreSQL: clients choose their catalog queries by this version.
  server_version: MIRROR_SERVER_VERSION,
  server_encoding: 'UTF8',
  client_encoding: 'UTF8',
  DateStyle: 'ISO, MDY',
  IntervalStyle: 'postgres',
  integer_datetimes: 'on',
  standard_conforming_strings: 'on',
  is_superuser: 'off',
};

export interface StartupRequest {
  readonly user: string;
  readonly database: string;
  readonly password: string;
  readonly applicationName: string;
  readonly remoteAddress: string;
}

/** A connection let in: its statement handler, what to report to it, and what to do when it ends. */
export interface AdmittedConnection {
  readonly handler: StatementHandler;
  readonly parameters: Readonly<Record<string, string>>;
  /** The workspace it counts against (connection caps). */
  readonly workspaceId: string;
  release(): void;
}

export interface ConnectionOptions {
  readonly secureContext?: SecureContext;
  readonly allowPlaintext: boolean;
  readonly idleTimeoutMs: number;
  /** Checks the key and the database; throws a FatalSqlStateError when the client may not connect. */
  admit(request: StartupRequest): Promise<AdmittedConnection>;
  /** Cancels the running statement of the connection with this process id and secret (a CancelRequest). */
  cancel(processId: number, secret: number): void;
  register(connection: ClientConnection): void;
  unregister(connection: ClientConnection): void;
  onInternalError(error: unknown): void;
  onStatement?(outcome: 'ok' | 'error'): void;
}

type Phase = 'startup' | 'password' | 'query' | 'closed';

/** How long a connection may take to sign in (PostgreSQL's authentication_timeout default). */
const AUTHENTICATION_TIMEOUT_MS = 60_000;

export class ClientConnection {
  readonly processId = randomInt(1, 2 ** 31 - 1);
  readonly secret = randomInt(0, 2 ** 31 - 1);
  private socket: Socket;
  private readonly reader = new FrontendReader();
  private readonly writer = new MessageWriter();
  private phase: Phase = 'startup';
  private tls = false;
  private startup: { user: string; database: string; applicationName: string } | undefined;
  private session: QuerySession | undefined;
  private admitted: AdmittedConnection | undefined;
  /** Messages are answered one at a time, in order, whatever the chunks they arrive in. */
  private work: Promise<void> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    socket: Socket,
    private readonly options: ConnectionOptions,
  ) {
    this.socket = socket;
    this.listen(socket);
    socket.once('close', () => this.close());
    socket.on('error', () => this.close());
    this.armIdleTimer();
  }

  /** Cancels the statement this connection is running (a CancelRequest naming it). */
  cancel(): void {
    this.session?.cancel();
  }

  private listen(socket: Socket): void {
    socket.on('data', (chunk: Buffer) => {
      this.reader.push(chunk);
      this.work = this.work.then(() => this.drain()).catch((error: unknown) => this.abort(error));
    });
  }

  private async drain(): Promise<void> {
    while (this.phase !== 'closed') {
      if (this.phase === 'startup') {
        const message = this.reader.nextStartup();
        if (!message) return;
        await this.onStartup(message);
        continue;
      }
      const message = this.reader.next();
      if (!message) return;
      this.armIdleTimer();
      if (this.phase === 'password') await this.onPassword(message);
      else if (!(await this.session!.handle(message))) this.end();
    }
  }

  private async onStartup(message: StartupMessage): Promise<void> {
    switch (message.kind) {
      case 'gssenc':
        this.send(this.writer.raw(Buffer.from('N')));
        return;
      case 'ssl':
        if (!this.options.secureContext || this.tls) {
          this.send(this.writer.raw(Buffer.from('N')));
          return;
        }
        // Bytes after the request would have been sent in clear: a client must wait for the answer.
        if (this.reader.pending > 0) throw new ProtocolViolation('data received after SSLRequest, before the TLS handshake');
        this.send(this.writer.raw(Buffer.from('S')));
        this.upgradeToTls(this.options.secureContext);
        return;
      case 'cancel':
        this.options.cancel(message.processId, message.secret);
        this.end();
        return;
      case 'startup': {
        if (message.version >> 16 !== PROTOCOL_3 >> 16) {
          return this.refuse(new FatalSqlStateError(PROTOCOL_VIOLATION, `unsupported frontend protocol ${message.version >> 16}.${message.version & 0xffff}: server supports 3.0`));
        }
        this.reader.markStarted();
        const user = message.parameters.user ?? '';
        this.startup = { user, database: message.parameters.database || user, applicationName: message.parameters.application_name ?? '' };
        if (!this.tls && !this.options.allowPlaintext) {
          return this.refuse(
            this.options.secureContext
              ? new FatalSqlStateError(INVALID_AUTHORIZATION_SPECIFICATION, 'this server accepts only TLS connections', 'Connect with sslmode=require (most clients default to prefer, which works too).')
              : new FatalSqlStateError(INVALID_AUTHORIZATION_SPECIFICATION, 'this server has no TLS certificate (TLS=off) and accepts no plaintext connections', 'The operator can allow plaintext with SVC_SQL_PLAINTEXT=on, or turn TLS on.'),
          );
        }
        this.phase = 'password';
        this.send(authenticationCleartextPassword(this.writer));
        return;
      }
    }
  }

  private async onPassword(message: FrontendMessage): Promise<void> {
    if (message.type !== 'password') throw new ProtocolViolation(`expected a password message, got ${message.type}`);
    const startup = this.startup!;
    try {
      this.admitted = await this.options.admit({ ...startup, password: message.password, remoteAddress: this.socket.remoteAddress ?? '' });
    } catch (error) {
      if (isSqlStateLike(error)) return this.refuse(error);
      throw error;
    }
    this.options.register(this);
    this.session = new QuerySession(this.admitted.handler, this.writer, {
      flush: (w) => this.send(w),
      onInternalError: this.options.onInternalError,
      onStatement: this.options.onStatement,
    });
    authenticationOk(this.writer);
    const parameters = { ...SERVER_PARAMETERS, application_name: startup.applicationName, session_authorization: startup.user, ...this.admitted.parameters };
    for (const [name, value] of Object.entries(parameters)) parameterStatus(this.writer, name, value);
    backendKeyData(this.writer, this.processId, this.secret);
    readyForQuery(this.writer, 'I');
    this.send(this.writer);
    this.phase = 'query';
    this.armIdleTimer();
  }

  private upgradeToTls(secureContext: SecureContext): void {
    const plain = this.socket;
    plain.removeAllListeners('data');
    const secure = new TLSSocket(plain, { isServer: true, secureContext });
    secure.on('error', () => this.close());
    this.socket = secure;
    this.tls = true;
    this.listen(secure);
  }

  private refuse(error: { sqlstate: string; message: string; hint?: string }): void {
    errorResponse(this.writer, { severity: 'FATAL', code: error.sqlstate, message: error.message, hint: error.hint });
    this.send(this.writer);
    this.end();
  }

  private send(writer: MessageWriter): void {
    if (writer.length === 0 || this.phase === 'closed') return;
    this.socket.write(writer.take());
  }

  /**
   * Closes a connection that stays silent: signed in, after the idle time; before, after at most a
   * minute (PostgreSQL's authentication_timeout), so that unfinished start-ups cannot pile up.
   */
  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    const signedIn = this.phase === 'query';
    const timeoutMs = signedIn ? this.options.idleTimeoutMs : Math.min(this.options.idleTimeoutMs, AUTHENTICATION_TIMEOUT_MS);
    this.idleTimer = setTimeout(() => {
      if (this.phase === 'closed') return;
      const message = signedIn ? `terminating connection due to idle timeout (${Math.round(timeoutMs / 1000)} s)` : 'authentication timeout: the connection did not sign in in time';
      errorResponse(this.writer, { severity: 'FATAL', code: signedIn ? '57P05' : '08006', message });
      this.send(this.writer);
      this.end();
    }, timeoutMs);
    this.idleTimer.unref();
  }

  private abort(error: unknown): void {
    if (!(error instanceof ProtocolViolation)) this.options.onInternalError(error);
    if (this.phase !== 'closed') {
      errorResponse(this.writer, { severity: 'FATAL', code: '08P01', message: error instanceof ProtocolViolation ? `protocol violation: ${error.message}` : 'internal error' });
      this.send(this.writer);
    }
    this.end();
  }

  /** Ends the connection from this side. */
  end(): void {
    if (this.phase === 'closed') return;
    this.socket.end();
    this.close();
  }

  private close(): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    clearTimeout(this.idleTimer);
    this.session?.cancel();
    this.admitted?.release();
    this.options.unregister(this);
    this.socket.destroySoon?.();
  }
}
