// The two metadata stores a suite about time-stamped or ordered rows runs on: embedded PGlite always,
// PostgreSQL when it answers (a database of its own, dropped on close).
import { startTestApp, type TestApp, type TestAppOptions } from './app.js';
import { createTestDatabase, hasService } from './services.js';

export interface StoreTestApp extends TestApp {
  /** The PostgreSQL database's URL (a second store or process may open it); undefined on PGlite. */
  databaseUrl: string | undefined;
}

export interface MetadataStore {
  name: 'PGlite' | 'PostgreSQL';
  start(options?: Omit<TestAppOptions, 'databaseUrl' | 'store'>): Promise<StoreTestApp>;
}

const withPostgres = await hasService('postgres');

export const METADATA_STORES: MetadataStore[] = [
  { name: 'PGlite', start: async (options = {}) => ({ ...(await startTestApp(options)), databaseUrl: undefined }) },
  ...(withPostgres
    ? [
        {
          name: 'PostgreSQL' as const,
          async start(options: Omit<TestAppOptions, 'databaseUrl' | 'store'> = {}) {
            const db = await createTestDatabase();
            const t = await startTestApp({ ...options, databaseUrl: db.url });
            return {
              ...t,
              databaseUrl: db.url,
              async close() {
                await t.close();
                await db.drop();
              },
            };
          },
        },
      ]
    : []),
];
