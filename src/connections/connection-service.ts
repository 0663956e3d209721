// Warehouse connections of a workspace: kept in the metadata store with their password sealed under
// SVC_SECRET_KEY, and turned into pooled, read-only Warehouse drivers on demand. Names starting with
// `_svc_` belong to the service itself and are hidden from users.
import { sql, type Selectable } from 'kysely';
import { z } from 'zod';
import type { SecretBox } from '../crypto/secret-box.js';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors.js';
import { scrubSecrets } from '../core/warehouse/errors.js';
import { ROLLUP_IDENTIFIER } from '../core/warehouse/rollup-writer.js';
import { WarehouseRegistry, type ConnectionConfig, type Warehouse } from '../core/warehouse/index.js';
import { connectionsGeneration } from '../shared-state/request-generations.js';
import { generationIn, type GenerationSnapshot, type SharedState } from '../shared-state/shared-state.js';
import type { Store } from '../store/db.js';
import type { ConnectionsTable, Engine } from '../store/schema.js';
import { inspectionWarnings, privilegeFlags, UNKNOWN_PRIVILEGES, unknownPrivilegesWarning, type ConnectionWarning, type PrivilegeFlags } from './connection-warnings.js';
import { duckDbFileMissing } from './duckdb-file-check.js';
import { moveDuckDbFilesIntoWorkspaces } from './duckdb-upgrade.js';
import { checkDuckDbPath, workspaceDirectory } from './workspace-files.js';

export const INTERNAL_PREFIX = '_svc_';
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A connection test is a quick "does it answer": an admin waiting on a form should not wait long. */
const TEST_TIMEOUT_MS = 5_000;
/** PostgreSQL's SQLSTATE for a unique violation (PGlite reports the same). */
const UNIQUE_VIOLATION = '23505';

type ConnectionRow = Selectable<ConnectionsTable>;

const server = { host: z.string().min(1).max(255), port: z.number().int().min(1).max(65535).optional(), database: z.string().min(1).max(255), user: z.string().min(1).max(255), ssl: z.boolean().optional() };
/** The schema, in the connection's own warehouse, its nodes' rollups are stored in (rollup-stores.ts); used exactly as written. */
const rollupSchema = z.string().regex(ROLLUP_IDENTIFIER, 'must be a plain identifier: a letter or "_", then letters, digits or "_", at most 63 in all').optional();
/** Engines whose rollups can be stored in their own warehouse; the others' stay in the embedded file. */
const ROLLUP_SCHEMA_ENGINES: readonly Engine[] = ['postgres', 'snowflake'];
/** Non-secret settings per engine; the password travels apart and is sealed. */
export const CONNECTION_SETTINGS = {
  postgres: z.object({ ...server, rollup_schema: rollupSchema }).strict(),
  mysql: z.object(server).strict(),
  duckdb: z.object({ path: z.string().min(1).max(1024) }).strict(),
  snowflake: z
    .object({
      // The account identifier as the driver accepts it (it refuses any other before connecting).
      account: z.string().regex(/^\w+([.-]\w+)*$/, 'must be a Snowflake account identifier, such as myorg-myaccount'),
      username: z.string().min(1),
      warehouse: z.string().optional(),
      database: z.string().optional(),
      schema: z.string().optional(),
      role: z.string().optional(),
      rollup_schema: rollupSchema,
    })
    .strict(),
} satisfies Record<Engine, z.ZodType>;

export interface ConnectionView {
  id: string;
  name: string;
  engine: Engine;
  settings: Record<string, unknown>;
  has_password: boolean;
  created_at: string;
  updated_at: string;
}

export interface NewConnection {
  name: string;
  engine: Engine;
  settings: Record<string, unknown>;
  password?: string | undefined;
}

export interface ConnectionPatch {
  name?: string | undefined;
  /** Replaces all the settings (they are checked again); omitted keeps them. */
  settings?: Record<string, unknown> | undefined;
  /** A new password; null removes it; omitted keeps it. */
  password?: string | null | undefined;
}

/** `instance` names the instance that tested: what one instance reaches, another may not. */
export type ConnectionTestResult =
  | { ok: true; duration_ms: number; engine: Engine; instance: string; privileges: PrivilegeFlags; warnings: ConnectionWarning[] }
  | { ok: false; error: string; engine: Engine; instance: string; missing_file?: string };

/**
 * Internal (`_svc_`) connections are reachable only when the caller is the service itself (for
 * example a deployed model naming one); a name or id that comes from a user never reaches them.
 */
export interface InternalOption {
  internal?: boolean;
  /** The request's generations, read at admission: the cached list is confirmed without a round trip. */
  generations?: GenerationSnapshot | undefined;
}

/** For lookups of the connection a deployed node names: the model, not a user, chose it. */
export const MODEL_CONNECTION: InternalOption = Object.freeze({ internal: true });

export class ConnectionService {
  readonly registry = new WarehouseRegistry();

  // Each workspace's connection rows, read once and kept until a write anywhere bumps the
  // workspace's connection generation (shared between instances when Redis is configured).
  private readonly cache = new Map<string, { generation: number; rows: Promise<ConnectionRow[]> }>();
  private readonly drivers = new WeakMap<ConnectionRow, Warehouse>();

  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    /** Holds each workspace's directory of DuckDB files (see workspace-files.ts). */
    private readonly dataDir: string,
    private readonly shared: SharedState,
    /** This instance's name, said where instances may differ (a DuckDB file one lacks, a test's answer). */
    private readonly instance: string,
  ) {}

  async create(workspaceId: string, input: NewConnection, options: InternalOption = {}): Promise<ConnectionView> {
    checkName(input.name, options);
    const settings = this.checkSettings(workspaceId, input.engine, input.settings);
    if (input.engine === 'duckdb' && input.password) throw new BadRequestError('DuckDB connections take no password', 'invalid_connection');
    const row = await this.store.db
      .insertInto('connections')
      .values({
        workspace_id: workspaceId,
        name: input.name,
        engine: input.engine,
        config: JSON.stringify(settings),
        secret_ciphertext: input.password ? this.box.seal(input.password) : null,
      })
      .onConflict((oc) => oc.columns(['workspace_id', 'name']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new ConflictError(`A connection named ${input.name} already exists in this workspace`, 'connection_exists');
    await this.changed(workspaceId);
    return view(row);
  }

  /** The workspace's connections; internal ones only when asked. Never a password. */
  async list(workspaceId: string, options: { includeInternal?: boolean } = {}): Promise<ConnectionView[]> {
    const rows = await this.store.db.selectFrom('connections').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').execute();
    return rows.filter((r) => options.includeInternal || !r.name.startsWith(INTERNAL_PREFIX)).map(view);
  }

  /**
   * The pooled driver of a connection of this workspace; another workspace's, or an internal one
   * unless asked for, is as absent as none.
   */
  async warehouse(workspaceId: string, name: string, options: InternalOption = {}): Promise<{ connection: ConnectionView; warehouse: Warehouse }> {
    const row = await this.rowNamed(workspaceId, name, options);
    return { connection: view(row), warehouse: this.driverOf(row) };
  }

  /**
   * A connection by name, without its driver: nothing is decrypted or opened (what a cached answer
   * needs to know of its connection). Same visibility as `warehouse`.
   */
  async named(workspaceId: string, name: string, options: InternalOption = {}): Promise<ConnectionView> {
    return view(await this.rowNamed(workspaceId, name, options));
  }

  private async rowNamed(workspaceId: string, name: string, options: InternalOption): Promise<ConnectionRow> {
    const row = (await this.cachedRows(workspaceId, options.generations)).find((r) => r.name === name);
    if (!row || (row.name.startsWith(INTERNAL_PREFIX) && !options.internal)) throw new NotFoundError(`Unknown connection "${name}"`, 'unknown_connection');
    return row;
  }

  /** The same, by id (internal connections hidden unless asked for). */
  async warehouseById(workspaceId: string, id: string, options: InternalOption = {}): Promise<{ connection: ConnectionView; warehouse: Warehouse }> {
    const row = (await this.cachedRows(workspaceId, options.generations)).find((r) => r.id === id);
    if (!row || (row.name.startsWith(INTERNAL_PREFIX) && !options.internal)) throw notFound(id);
    return { connection: view(row), warehouse: this.driverOf(row) };
  }

  private async cachedRows(workspaceId: string, snapshot: GenerationSnapshot | undefined): Promise<ConnectionRow[]> {
    const generation = await generationIn(this.shared, connectionsGeneration(workspaceId), snapshot);
    const cached = this.cache.get(workspaceId);
    if (cached && cached.generation === generation) return cached.rows;
    const rows = this.store.db.selectFrom('connections').selectAll().where('workspace_id', '=', workspaceId).execute();
    this.cache.set(workspaceId, { generation, rows });
    rows.catch(() => this.cache.delete(workspaceId));
    return rows;
  }

  private changed(workspaceId: string): Promise<void> {
    return this.shared.bump(connectionsGeneration(workspaceId));
  }

  /** One connection by id. Another workspace's, or a hidden internal one, is as absent as none. */
  async get(workspaceId: string, id: string, options: InternalOption = {}): Promise<ConnectionView> {
    return view(await this.visibleRow(workspaceId, id, options));
  }

  /**
   * Changes name, settings and/or password. The engine stays: settings are checked against it again.
   * The pooled driver is closed so that the next run connects with what was saved.
   */
  async update(workspaceId: string, id: string, patch: ConnectionPatch, options: InternalOption = {}): Promise<ConnectionView> {
    const row = await this.visibleRow(workspaceId, id, options);
    const changes: { name?: string; config?: string; secret_ciphertext?: string | null } = {};
    if (patch.name !== undefined && patch.name !== row.name) {
      checkName(patch.name, options);
      changes.name = patch.name;
    }
    if (patch.settings !== undefined) changes.config = JSON.stringify(this.checkSettings(workspaceId, row.engine, patch.settings));
    if (patch.password !== undefined) {
      if (patch.password === '') throw new BadRequestError('password must not be empty; send null to remove it', 'invalid_connection');
      if (patch.password !== null && row.engine === 'duckdb') throw new BadRequestError('DuckDB connections take no password', 'invalid_connection');
      changes.secret_ciphertext = patch.password === null ? null : this.box.seal(patch.password);
    }
    if (Object.keys(changes).length === 0) return view(row);

    let updated: ConnectionRow | undefined;
    try {
      updated = await this.store.db
        .updateTable('connections')
        .set({ ...changes, updated_at: sql<Date>`now()` })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`A connection named ${changes.name} already exists in this workspace`, 'connection_exists');
      throw error;
    }
    // Deleted between the read and the write: as absent as it now is.
    if (!updated) throw notFound(id);
    await this.changed(workspaceId);
    await this.registry.remove(id);
    return view(updated);
  }

  /** Removes the connection and closes its pooled driver. */
  async delete(workspaceId: string, id: string, options: InternalOption = {}): Promise<void> {
    await this.visibleRow(workspaceId, id, options);
    const deleted = await this.store.db.deleteFrom('connections').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    await this.changed(workspaceId);
    await this.registry.remove(id);
    if (deleted.numDeletedRows === 0n) throw notFound(id);
  }

  /**
   * Whether the warehouse answers `SELECT 1` with the saved settings, and then what the role can do
   * beyond reading (see connection-warnings.ts). A failure is an answer, not an error: its message
   * comes from the driver, which never includes the config, and is scrubbed again. `timeZone` (the
   * workspace's) is the zone whose conversions are checked where the server may not know zones.
   */
  async test(workspaceId: string, id: string, options: InternalOption = {}, timeZone = 'UTC'): Promise<ConnectionTestResult> {
    const row = await this.visibleRow(workspaceId, id, options);
    const password = this.passwordOf(row);
    const scrubbed = (error: unknown) => scrubSecrets(error instanceof Error ? error.message : String(error), password);
    const driver = this.driverOf(row);
    const startedAt = performance.now();
    const instance = this.instance;
    try {
      await withDeadline(driver.run('SELECT 1', [], { maxRows: 1, timeoutMs: TEST_TIMEOUT_MS }), TEST_TIMEOUT_MS);
    } catch (error) {
      const path = row.engine === 'duckdb' ? String(row.config.path) : undefined;
      const missing = path !== undefined && duckDbFileMissing(this.directoryOf(row.workspace_id), path);
      return { ok: false, error: scrubbed(error), engine: row.engine, instance, ...(missing ? { missing_file: path } : {}) };
    }
    const answered = { ok: true as const, duration_ms: Math.round(performance.now() - startedAt), engine: row.engine, instance };
    try {
      const inspection = await withDeadline(driver.inspect({ timeoutMs: TEST_TIMEOUT_MS, timeZone }), TEST_TIMEOUT_MS);
      return { ...answered, privileges: privilegeFlags(inspection.privileges), warnings: inspectionWarnings(row.engine, inspection, timeZone) };
    } catch (error) {
      return { ...answered, privileges: UNKNOWN_PRIVILEGES, warnings: [unknownPrivilegesWarning(scrubbed(error))] };
    }
  }

  close(): Promise<void> {
    return this.registry.closeAll();
  }

  /**
   * Moves DuckDB files an earlier version kept at the top of the data directory into their workspace's
   * directory, and makes every DuckDB path relative (see duckdb-upgrade.ts). Run on start; idempotent.
   */
  upgradeDuckDbPaths(): Promise<string[]> {
    return moveDuckDbFilesIntoWorkspaces({ store: this.store, dataDir: this.dataDir, changed: (workspaceId) => this.changed(workspaceId) });
  }

  private async visibleRow(workspaceId: string, id: string, options: InternalOption): Promise<ConnectionRow> {
    // A non-UUID would make PostgreSQL refuse the query; it names no connection either way.
    const row = UUID.test(id)
      ? await this.store.db.selectFrom('connections').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()
      : undefined;
    if (!row || (row.name.startsWith(INTERNAL_PREFIX) && !options.internal)) throw notFound(id);
    return row;
  }

  private passwordOf(row: ConnectionRow): string | undefined {
    return row.secret_ciphertext ? this.box.open(row.secret_ciphertext) : undefined;
  }

  /**
   * The pooled driver of a cached row: found again by the row object while the registry still holds
   * it, so that a run costs neither the password's decryption nor the registry's fingerprint of the
   * settings. A saved change is a new row (the cache reloads on its generation); a driver the registry
   * closed or replaced is not answered.
   */
  private driverOf(row: ConnectionRow): Warehouse {
    const known = this.drivers.get(row);
    if (known && this.registry.holds(row.id, known)) return known;
    const warehouse = this.openDriver(row);
    this.drivers.set(row, warehouse);
    return warehouse;
  }

  private openDriver(row: ConnectionRow): Warehouse {
    if (row.engine === 'duckdb') {
      // The driver checks the path against the workspace's directory each time it opens the file.
      return this.registry.get(row.id, { engine: 'duckdb', path: String(row.config.path), root: this.directoryOf(row.workspace_id), instance: this.instance });
    }
    const password = this.passwordOf(row);
    const config = { engine: row.engine, ...row.config, ...(password ? { password } : {}) } as ConnectionConfig;
    return this.registry.get(row.id, config);
  }

  /** The directory a workspace's DuckDB paths are relative to. */
  directoryOf(workspaceId: string): string {
    return workspaceDirectory(this.dataDir, workspaceId);
  }

  private checkSettings(workspaceId: string, engine: Engine, settings: Record<string, unknown>): Record<string, unknown> {
    if (settings['rollup_schema'] !== undefined && !ROLLUP_SCHEMA_ENGINES.includes(engine)) {
      throw new BadRequestError(
        `Invalid ${engine} connection settings: rollup_schema is for PostgreSQL and Snowflake connections; the rollups of ${engine === 'duckdb' ? 'DuckDB' : 'MySQL and MariaDB'} connections are stored in the service's embedded rollup file`,
        'invalid_connection',
      );
    }
    const parsed = CONNECTION_SETTINGS[engine].safeParse(settings);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new BadRequestError(`Invalid ${engine} connection settings: ${issue.path.join('.') || 'settings'} ${issue.message}`, 'invalid_connection');
    }
    if (engine === 'duckdb') {
      return { path: checkDuckDbPath(this.directoryOf(workspaceId), (parsed.data as { path: string }).path) };
    }
    // An unqualified name belongs to the connection's database, and in MySQL's own `user` is the table of
    // accounts and password hashes, which the read-only guard can refuse only when it is qualified.
    // (Compared in any case: servers with lower_case_table_names fold database names.)
    if (engine === 'mysql' && (parsed.data as { database: string }).database.toLowerCase() === 'mysql') {
      throw new BadRequestError(
        "Invalid mysql connection settings: database must not be the server's own `mysql` database, whose tables hold accounts and password hashes; name the database that holds your data",
        'invalid_connection',
      );
    }
    return parsed.data;
  }
}

function checkName(name: string, options: InternalOption): void {
  if (!NAME.test(name)) {
    throw new BadRequestError('A connection name is 1 to 100 letters, digits, "_" or "-", not starting with "-"', 'invalid_connection');
  }
  if (name.startsWith(INTERNAL_PREFIX) && !options.internal) {
    throw new BadRequestError(`Connection names starting with ${INTERNAL_PREFIX} are reserved for the service`, 'invalid_connection');
  }
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Connection ${id} not found`, 'unknown_connection');
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;
}

/** Rejects when `work` has not settled within `ms`; `work` is left to finish (or fail) on its own. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the warehouse did not answer within ${ms} ms`)), ms);
  });
  work.catch(() => undefined); // a late failure after the deadline must not go unhandled
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Views of cached rows, made once per row (a row object is never changed). */
const views = new WeakMap<ConnectionRow, ConnectionView>();

function view(row: ConnectionRow): ConnectionView {
  const kept = views.get(row);
  if (kept) return kept;
  const made = Object.freeze(viewOf(row));
  views.set(row, made);
  return made;
}

function viewOf(row: ConnectionRow): ConnectionView {
  return {
    id: row.id,
    name: row.name,
    engine: row.engine,
    settings: row.config,
    has_password: row.secret_ciphertext !== null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

