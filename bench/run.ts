// `npm run bench [section…]`: every benchmark of the service, or the named sections
// (platform, overhead, compile, content, events, cml, demo, raw-sql, structured, ask, values, mcp, sql-api, csv-export, rollups). Each section prints its own figures and targets.
// raw-sql is the overhead section's raw SQL rows only (surfaces B and D on each engine, beside the
// engine's own client): it runs when named, not as part of every section, where overhead measures them.
import { benchAsk } from './ask-bench.js';
import { benchCml } from './cml-bench.js';
import { benchCompile } from './compile-bench.js';
import { benchCsvExport } from './csv-export-bench.js';
import { benchContent } from './content-bench.js';
import { benchEvents } from './events-bench.js';
import { benchMcp } from './mcp-bench.js';
import { benchSqlApi } from './sql-api-bench.js';
import { benchDemo } from './demo-bench.js';
import { benchPeers } from './peers-bench.js';
import { benchOverhead, RAW_SQL } from './overhead-bench.js';
import { benchPlatform } from './platform-bench.js';
import { benchRollups } from './rollups-bench.js';
import { benchStructured } from './structured-bench.js';
import { benchValues } from './values-bench.js';
import { demoModel } from '../test/semantic/fixture.js';

const SECTIONS: Record<string, () => Promise<string[]>> = {
  ask: benchAsk,
  cml: benchCml,
  compile: () => benchCompile(demoModel(), 'demo model'),
  content: benchContent,
  'csv-export': benchCsvExport,
  events: benchEvents,
  mcp: benchMcp,
  'sql-api': benchSqlApi,
  demo: benchDemo,
  peers: benchPeers,
  overhead: () => benchOverhead(),
  platform: benchPlatform,
  'raw-sql': () => benchOverhead(RAW_SQL),
  rollups: benchRollups,
  structured: benchStructured,
  values: benchValues,
};

/** Sections run only when named: raw-sql repeats part of overhead; rollups loads 30M rows into two engines. */
const PARTS = new Set(['raw-sql', 'rollups']);

const wanted = process.argv.slice(2);
for (const name of wanted.length ? wanted : Object.keys(SECTIONS).filter((section) => !PARTS.has(section))) {
  const section = SECTIONS[name];
  if (!section) {
    process.stderr.write(`Unknown section "${name}"; sections: ${Object.keys(SECTIONS).join(', ')}\n`);
    process.exitCode = 2;
    continue;
  }
  process.stdout.write(`\n${(await section()).join('\n')}\n`);
}
