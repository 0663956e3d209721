// Compile time of typical semantic queries (no I/O): target p50 under 100 µs.
import { performance } from 'node:perf_hooks';
import { compileQuery } from '../src/core/semantic/compile.js';
import type { SemanticModel } from '../src/core/semantic/model.js';
import { semanticQuerySchema } from '../src/core/semantic/query.js';
import { DIALECTS } from '../src/core/sql/dialects.js';
import { GOLDEN_QUERIES } from '../test/semantic/queries.js';
import { percentile } from './timing.js';


export async function benchCompile(model: SemanticModel, label: string): Promise<string[]> {
  const queries = Object.entries(GOLDEN_QUERIES).map(([name, input]) => [name, semanticQuerySchema.parse(input)] as const);
  const options = { attributes: { region: 'Europe' }, now: new Date() };
  const lines = [`Compile (${label}): per query, 20,000 runs after warm-up, PostgreSQL dialect unless noted`];
  for (const [name, query] of queries) {
    const run = (dialect = DIALECTS.postgres) => compileQuery(model, query, { ...options, dialect });
    for (let i = 0; i < 2000; i++) run();
    const samples: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const start = performance.now();
      run();
      samples.push((performance.now() - start) * 1000);
    }
    samples.sort((a, b) => a - b);
    const p50 = percentile(samples, 0.5);
    lines.push(`  ${name.padEnd(26)} p50 ${p50.toFixed(1).padStart(6)} µs   p99 ${percentile(samples, 0.99).toFixed(1).padStart(6)} µs   ${p50 < 100 ? 'target met' : 'TARGET NOT MET'}`);
  }
  return lines;
}
