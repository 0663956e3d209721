// The refusal reasons, their documentation and the code kept in step: docs/api.md must hold exactly
// the table rendered from the guard's list of reasons, every refusal of the corpus must give a listed
// reason of its own engine, and every listed reason must be given by some statement (no stale rows).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Reason, REASONS } from '../../src/core/sql/guard/index.js';
import { WAREHOUSE_ENGINES, type WarehouseEngine } from '../../src/core/warehouse/types.js';
import { ATTACKS } from './corpus.js';
import { isReason, refusalReason } from './refusals.js';

const ENGINE_NAMES: Record<WarehouseEngine, string> = { postgres: 'PostgreSQL', duckdb: 'DuckDB', mysql: 'MySQL/MariaDB', snowflake: 'Snowflake' };
const ENGINE_ORDER: WarehouseEngine[] = ['postgres', 'duckdb', 'mysql', 'snowflake'];
const LIST: Reason[] = Object.values(REASONS);

function engines(reason: Reason): string {
  if (reason.engines.length === WAREHOUSE_ENGINES.length) return 'all';
  return ENGINE_ORDER.filter((e) => reason.engines.includes(e)).map((e) => ENGINE_NAMES[e]).join(', ');
}

function renderTable(): string {
  const rows = LIST.map((r) => `| \`${r.text}\` | ${engines(r)} | ${r.why} |`);
  return ['| `reason` | Engines | Why |', '|---|---|---|', ...rows].join('\n');
}

/** The listed reasons of `engine` whose text `given` can be. */
function matching(given: string, engine: WarehouseEngine): Reason[] {
  return LIST.filter((r) => r.engines.includes(engine) && isReason(given, r));
}

// Reasons no attack of the corpus gives, with a statement that does.
const EXTRA: [WarehouseEngine, unknown][] = [
  ['postgres', 42],
  ['mysql', `SELECT '${'x'.repeat(200_001)}'`],
  ['duckdb', 'SELECT 1 \ud800'],
  ['oracle' as WarehouseEngine, 'SELECT 1'],
  ['duckdb', "SELECT 'unterminated"],
  ['duckdb', 'SELECT "unterminated'],
  ['duckdb', 'SELECT $a$ unterminated'],
  ['duckdb', 'SELECT 1 -- a\rb\n'],
  ['mysql', 'SELECT 1 -- a\rb\n'],
  ['mysql', 'SELECT\u200b1'],
  ['mysql', 'SELECT 1\u0007'],
  ['snowflake', 'SELECT a$$b'],
  ['snowflake', "SELECT 'it\\'s'"],
  ['snowflake', 'SELECT 1 /* a /* b */ */'],
  ['duckdb', '(EXPLAIN SELECT 1)'],
  ['duckdb', 'EXPLAIN (FORMAT json) SELECT 1'],
  ['duckdb', 'INSERT INTO t SELECT 1'],
  ['snowflake', 'SELECT 1 FOR UPDATE'],
  ['mysql', 'SELECT 1 /* ok */ FROM t WHERE 1 /*+ BKA(t) */ AND x = 1 /*+ BKA("x") */'],
];

describe('refusal reasons', () => {
  it('are documented in docs/api.md exactly as the guard lists them', () => {
    const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const table = renderTable();
    if (!docs.includes(table)) {
      // The expected table, to paste into docs/api.md ("Refusal reasons").
      console.info(table);
    }
    expect(docs.includes(table), 'docs/api.md must hold the refusal-reason table rendered from src/core/sql/guard/reasons.ts').toBe(true);
  });

  it('have distinct texts', () => {
    expect(new Set(LIST.map((r) => r.text)).size).toBe(LIST.length);
  });

  it('cover every refusal of the corpus and every listed reason is given', async () => {
    const given = new Set<Reason>();
    const unlisted: string[] = [];
    const cases: [WarehouseEngine, unknown][] = [...ATTACKS.map((a) => [a.engine, a.sql] as [WarehouseEngine, unknown]), ...EXTRA];
    for (const [engine, sql] of cases) {
      const reason = await refusalReason(engine, sql);
      expect(reason, `${engine}: ${String(sql)}`).toBeDefined();
      // An unknown engine is refused before any engine's rules: its reason is listed for all.
      const found = matching(reason!, WAREHOUSE_ENGINES.includes(engine) ? engine : 'postgres');
      if (found.length === 0) unlisted.push(`${engine}: ${reason!}`);
      for (const r of found) given.add(r);
    }
    expect(unlisted).toEqual([]);
    const neverGiven = LIST.filter((r) => !given.has(r)).map((r) => r.text);
    // Reached only when a parser crashes or cannot load.
    expect(neverGiven).toEqual([REASONS.uncheckable.text]);
  });
});
