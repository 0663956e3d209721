// What the mirror's PostgreSQL says about its own functions and views, read once from the template
// every mirror is copied from (a mirror adds tables, never functions or views): how volatile each
// function is, and what each view calls and reads. A statement's answer can be kept only when nothing
// it calls can answer differently next time (statement-analysis.ts), and a view calls functions the
// statement does not name: `pg_stat_activity` reads the backend's statistics, `pg_locks` the lock table.

/** How a function's answer can change, from the least to the most. */
export type Volatility = 'fixed' | 'varying' | 'volatile';

/**
 * Functions PostgreSQL marks stable (the same answer throughout one statement) whose answer moves
 * while a mirror lives: they read the clock, the transaction or the backend rather than the catalog
 * and the settings, which a kept answer is keyed by. Names, schema ignored, exactly or by prefix.
 */
const VARYING_NAMES = new Set([
  // the clock: now() and its kin, one-argument age() (the current date; age(xid) the next transaction id)
  'now',
  'transaction_timestamp',
  'statement_timestamp',
  'age',
  'mxid_age',
  // a text read as a date or time ('now', 'today', 'tomorrow'), as a function-style cast or input function
  'date',
  'date_in',
  'time',
  'time_in',
  'timetz',
  'timetz_in',
  'timestamp',
  'timestamp_in',
  'timestamptz',
  'timestamptz_in',
  // the backend and its session
  'pg_backend_pid',
  'pg_postmaster_start_time',
  'pg_conf_load_time',
  'pg_trigger_depth',
  'pg_listening_channels',
  'pg_cursor',
  'pg_prepared_statement',
]);
const VARYING_PREFIXES = [
  // statistics counters, which every statement moves
  'pg_stat_get_',
  // transaction ids and snapshots
  'pg_current_',
  'txid_',
  // zones' offsets from UTC today (daylight saving time)
  'pg_timezone_',
  'pg_event_trigger_',
];

function nameVaries(name: string): boolean {
  return VARYING_NAMES.has(name) || VARYING_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** A function's volatility from PostgreSQL's marking of it (provolatile: i, s or v) and its name. */
function volatilityOf(name: string, provolatile: string): Volatility {
  if (provolatile.includes('v')) return 'volatile';
  return nameVaries(name) ? 'varying' : 'fixed';
}

/** The more volatile of two: a statement is as volatile as the most volatile thing in it. */
export function mostVolatile(a: Volatility, b: Volatility): Volatility {
  if (a === 'volatile' || b === 'volatile') return 'volatile';
  return a === 'varying' || b === 'varying' ? 'varying' : 'fixed';
}

/**
 * One JSON text: each function name with the provolatile letters of its overloads, and each view with
 * the functions its rule calls (`:funcid`, `:opfuncid`, `:aggfnoid` and `:winfnoid` of the rule's
 * node tree, each as provolatile then name), the relations it reads (`:relid`), and whether it reads
 * the clock through CURRENT_DATE, CURRENT_TIMESTAMP, LOCALTIME… (SQLValueFunction ops 0 to 8). Only
 * ON SELECT rules: the update rule of pg_settings calls set_config, which reading it does not.
 */
export const CATALOG_FACTS_SQL = String.raw`SELECT pg_catalog.json_build_object(
  'functions', (SELECT pg_catalog.json_object_agg(proname, volatility)
                FROM (SELECT proname, pg_catalog.string_agg(DISTINCT provolatile::pg_catalog.text, '') AS volatility
                      FROM pg_catalog.pg_proc GROUP BY proname) f),
  'views', (SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
              'oid', c.oid, 'schema', n.nspname, 'name', c.relname,
              'functions', ARRAY(SELECT DISTINCT p.provolatile::pg_catalog.text || p.proname::pg_catalog.text
                                 FROM pg_catalog.regexp_matches(r.ev_action::pg_catalog.text, ':(?:funcid|opfuncid|aggfnoid|winfnoid) (\d+)', 'g') m
                                 JOIN pg_catalog.pg_proc p ON p.oid = m[1]::pg_catalog.oid),
              'relations', ARRAY(SELECT DISTINCT m[1]::pg_catalog.oid
                                 FROM pg_catalog.regexp_matches(r.ev_action::pg_catalog.text, ':relid (\d+)', 'g') m),
              'clock', r.ev_action::pg_catalog.text ~ '\{SQLVALUEFUNCTION :op [0-8] '))
            FROM pg_catalog.pg_rewrite r
            JOIN pg_catalog.pg_class c ON c.oid = r.ev_class
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE r.ev_type = '1')
)::pg_catalog.text`;

interface FactsJson {
  readonly functions: Record<string, string>;
  readonly views: ReadonlyArray<{ oid: number; schema: string; name: string; functions: string[]; relations: number[]; clock: boolean }> | null;
}

export class CatalogFacts {
  /** Each function name's volatility: the most volatile of its overloads (a statement names, it does not resolve). */
  private readonly functions = new Map<string, Volatility>();
  /** Each view's volatility, by `schema.name` and by bare name (an unqualified name may be any of them). */
  private readonly views = new Map<string, Volatility>();

  constructor(json: string) {
    const facts = JSON.parse(json) as FactsJson;
    for (const [name, provolatile] of Object.entries(facts.functions)) this.functions.set(name, volatilityOf(name, provolatile));
    const views = facts.views ?? [];
    const byOid = new Map(views.map((view) => [view.oid, view]));
    const own = (view: (typeof views)[number]): Volatility =>
      view.functions.reduce<Volatility>((most, f) => mostVolatile(most, volatilityOf(f.slice(1), f[0]!)), view.clock ? 'varying' : 'fixed');
    // A view is as volatile as what it calls and as the views it reads (rules cannot loop).
    const resolved = new Map<number, Volatility>();
    const resolve = (oid: number, seen: Set<number>): Volatility => {
      const known = resolved.get(oid);
      if (known) return known;
      const view = byOid.get(oid);
      if (!view || seen.has(oid)) return 'fixed';
      seen.add(oid);
      const volatility = view.relations.reduce<Volatility>((most, relation) => mostVolatile(most, resolve(relation, seen)), own(view));
      resolved.set(oid, volatility);
      return volatility;
    };
    for (const view of views) {
      const volatility = resolve(view.oid, new Set());
      this.views.set(`${view.schema}.${view.name}`, volatility);
      this.views.set(view.name, mostVolatile(this.views.get(view.name) ?? 'fixed', volatility));
    }
  }

  /** A name called as a function: unknown names count as volatile (nothing is known of them). */
  function(name: string): Volatility {
    return this.functions.get(name) ?? 'volatile';
  }

  /** A name that may be a function called with column notation (`(x).f` is f(x)); a column otherwise. */
  columnOrFunction(name: string): Volatility {
    return this.functions.get(name) ?? 'fixed';
  }

  /** A relation a statement reads: a view answers as what it calls; a table as it holds (never changes). */
  relation(schema: string | undefined, name: string): Volatility {
    return this.views.get(schema === undefined ? name : `${schema}.${name}`) ?? 'fixed';
  }
}
