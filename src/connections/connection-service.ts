// Warehouse connections of a workspace: kept in the metadata store with their password sealed under
// SVC_SECRET_KEY, and turned into pooled, read-only Warehouse drivers on demand. Names starting with
// `_svc_` belong to the service itself and are hidden from users.
import path from 'node:path';
import { z } from 'zod';
import type { SecretBox } from '../crypto/secret-box.js';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors.js';
import { WarehouseRegistry, type ConnectionConfig, type Warehouse } from '../core/warehouse/index.js';
import type { Store } from '../store/db.js';
import type { Engine } from '../store/schema.js';

export const INTERNAL_PREFIX = '_svc_';
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/;

const server = { host: z.string().min(1).max(255), port: z.number().int().min(1).max(65535).optional(), database: z.string().min(1).max(255), user: z.string().min(1).max(255), ssl: z.boolean().optional() };
/** Non-secret settings per engine; the password travels apart and is sealed. */
const SETTINGS = {
  postgres: z.object(server).strict(),
  mysql: z.object(server).strict(),
  duckdb: z.object({ path: z.string().min(1) }).strict(),
  snowflake: z
    .object({
      account: z.string().min(1),
      username: z.string().min(1),
      warehouse: z.string().optional(),
      database: z.string().optional(),
      schema: z.string().optional(),
      role: z.string().optional(),
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

export class ConnectionService {
  readonly registry = new WarehouseRegistry();

  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    /** DuckDB files must live under this directory: a path elsewhere could reach another tenant's data. */
    private readonly duckdbRoot: string,
  ) {}

  async create(workspaceId: string, input: NewConnection, options: { internal?: boolean } = {}): Promise<ConnectionView> {
    if (!NAME.test(input.name)) {
      throw new BadRequestError('A connection name is 1 to 100 letters, digits, "_" or "-", not starting with "-"', 'invalid_connection');
    }
    if (input.name.startsWith(INTERNAL_PREFIX) && !options.internal) {
      throw new BadRequestError(`Connection names starting with ${INTERNAL_PREFIX} are reserved for the service`, 'invalid_connection');
    }
    const settings = this.checkSettings(input.engine, input.settings);
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
    return view(row);
  }

  /** The workspace's connections; internal ones only when asked. Never a password. */
  async list(workspaceId: string, options: { includeInternal?: boolean } = {}): Promise<ConnectionView[]> {
    const rows = await this.store.db.selectFrom('connections').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').execute();
    return rows.filter((r) => options.includeInternal || !r.name.startsWith(INTERNAL_PREFIX)).map(view);
  }

  /** The pooled driver of a connection of this workspace; another workspace's is as absent as none. */
  async warehouse(workspaceId: string, name: string): Promise<{ connection: ConnectionView; warehouse: Warehouse }> {
    const row = await this.store.db
      .selectFrom('connections')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`Unknown connection "${name}"`, 'unknown_connection');
    const password = row.secret_ciphertext ? this.box.open(row.secret_ciphertext) : undefined;
    const config = { engine: row.engine, ...row.config, ...(password ? { password } : {}) } as ConnectionConfig;
    return { connection: view(row), warehouse: this.registry.get(row.id, config) };
  }

  close(): Promise<void> {
    return this.registry.closeAll();
  }

  private checkSettings(engine: Engine, settings: Record<string, unknown>): Record<string, unknown> {
    const parsed = SETTINGS[engine].safeParse(settings);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new BadRequestError(`Invalid ${engine} connection settings: ${issue.path.join('.') || 'settings'} ${issue.message}`, 'invalid_connection');
    }
    if (engine === 'duckdb') {
      const file = path.resolve(this.duckdbRoot, (parsed.data as { path: string }).path);
      if (!file.startsWith(path.resolve(this.duckdbRoot) + path.sep)) {
        throw new BadRequestError(`DuckDB files must be inside the service's data directory (${this.duckdbRoot})`, 'invalid_connection');
      }
      return { path: file };
    }
    return parsed.data;
  }
}

function view(row: {
  id: string;
  name: string;
  engine: Engine;
  config: Record<string, unknown>;
  secret_ciphertext: string | null;
  created_at: Date;
  updated_at: Date;
}): ConnectionView {
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
