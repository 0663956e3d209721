// The value index (src/core/answer/value-index.ts) at a million distinct values: build time, memory per
// million values, exact and near lookup time, and offline planning p50/p95 with a 500-metric catalog
// and that index behind every reveal. Target: planning p50 under 10 ms.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildCatalogIndex, planOffline } from '../src/core/answer/offline-planner.js';
import { findPeriod } from '../src/core/answer/periods.js';
import { contentStems } from '../src/core/answer/text.js';
import { ValueStore, type ValueColumn } from '../src/core/answer/value-index.js';
import { compileModel } from '../src/core/cml/index.js';
import { DEMO_MODEL_DIR, readModelDir } from '../src/demo-setup.js';
import { largeModel } from '../test/helpers/large-catalog.js';
import { percentile } from './timing.js';

const VALUES = Number(process.env.BENCH_VALUES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1_048_576;
}

/** A deterministic generator (mulberry32), so every run indexes the same values. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mer', 'tin', 'sa', 'vel', 'dor', 'ri', 'an', 'bel', 'cor', 'nu', 'pha', 'quis', 'ter', 'zo', 'gran', 'hel', 'ix', 'mon', 'st', 'ur', 'wen', 'yal'];

/** Names such as "Kaloter Velmon": ~60k distinct words, one to three per value, like cities, firms or products. */
function syntheticValues(count: number): string[] {
  const random = generator(42);
  const words = new Set<string>();
  while (words.size < 60_000) {
    const syllables = 2 + Math.floor(random() * 3);
    let word = '';
    for (let s = 0; s < syllables; s++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word[0]!.toUpperCase() + word.slice(1));
  }
  const vocabulary = [...words];
  const values = new Set<string>();
  while (values.size < count) {
    const length = 1 + Math.floor(random() * 3);
    const parts: string[] = [];
    for (let w = 0; w < length; w++) parts.push(vocabulary[Math.floor(random() * vocabulary.length)]!);
    values.add(parts.join(' '));
  }
  return [...values];
}

function timed(run: () => void, runs: number): { p50: number; p95: number; p99: number } {
  for (let i = 0; i < Math.min(30, runs); i++) run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), p99: percentile(samples, 0.99) };
}

/** One letter replaced, or two for long words: a typo the near lookup should see through. */
function typo(word: string, random: () => number): string {
  const chars = [...word];
  const edits = word.length >= 8 ? 2 : 1;
  for (let e = 0; e < edits; e++) {
    const at = 1 + Math.floor(random() * (chars.length - 1));
    chars[at] = chars[at] === 'x' ? 'q' : 'x';
  }
  return chars.join('');
}

const ms = (value: number) => value.toFixed(3);

export async function benchValues(): Promise<string[]> {
  const lines = [`value index: ${VALUES.toLocaleString('en-US')} distinct values`];
  const model = largeModel(compileModel(await readModelDir(DEMO_MODEL_DIR)).model!);
  const index = buildCatalogIndex(model);
  const sales = index.reveals.find((reveal) => reveal.name === 'sales')!;
  const fields = sales.dimensions.filter((dimension) => dimension.type === 'string').map((dimension) => dimension.field);

  const before = heapMb();
  let values: string[] | undefined = syntheticValues(VALUES);
  const withStrings = heapMb();
  const per = Math.ceil(values.length / fields.length);
  const columns: ValueColumn[] = fields.map((field, f) => ({ field, values: values!.slice(f * per, (f + 1) * per) }));
  const started = performance.now();
  const store = ValueStore.build(columns);
  const buildMs = performance.now() - started;
  const sample = values.filter((_, i) => i % 997 === 0);
  values = undefined;
  columns.length = 0;
  const withStore = heapMb();
  const stringsMb = withStrings - before;
  const totalMb = withStore - before;
  const perMillion = (mb: number) => (mb * 1_000_000) / store.size;
  lines.push(
    `  build ${(buildMs / 1000).toFixed(2)} s over ${fields.length} fields; heap ${totalMb.toFixed(0)} MB in all ` +
      `(${perMillion(totalMb).toFixed(0)} MB per million values: ${perMillion(stringsMb).toFixed(0)} MB the values themselves, ${perMillion(totalMb - stringsMb).toFixed(0)} MB the index)`,
  );

  const random = generator(7);
  const exactStems = sample.map((value) => contentStems(value));
  let n = 0;
  const exact = timed(() => {
    const found = store.phrases(exactStems[n++ % exactStems.length]!);
    if (found.length === 0) throw new Error('an indexed value was not found');
  }, 20_000);
  lines.push(`  exact lookup: p50 ${ms(exact.p50)} ms, p99 ${ms(exact.p99)} ms`);

  const longWords = [...new Set(exactStems.flat())].filter((word) => word.length >= 5);
  const typos = longWords.map((word) => typo(word, random)).filter((word) => !store.hasStem(word));
  let found = 0;
  n = 0;
  const near = timed(() => {
    if (store.nearStem(typos[n++ % typos.length]!) !== undefined) found++;
  }, 5_000);
  const misses = timed(() => store.nearStem(`zzq${n++}kkwvb`), 2_000);
  lines.push(`  near lookup (1 edit below 8 letters, 2 from 8): p50 ${ms(near.p50)} ms, p99 ${ms(near.p99)} ms; a word near nothing: p50 ${ms(misses.p50)} ms`);
  lines.push(`  near lookup found a value word for ${((100 * found) / (5_000 + Math.min(30, 5_000))).toFixed(0)}% of typos`);

  const picks = sample.slice(0, 50);
  const questions = [
    'What was revenue last week?',
    'revenue by channel last month',
    'top 3 regions by orders this year',
    'line 7 refunds by channel last quarter',
    ...picks.slice(0, 10).map((value) => `revenue in ${value} last month`),
    ...picks.slice(10, 20).map((value) => `orders from ${value.toLowerCase()} this year`),
    ...picks.slice(20, 30).map((value) => `revenue in ${value.split(' ').map((word) => (word.length >= 5 ? typo(word.toLowerCase(), random) : word)).join(' ')}`),
    'revenue in Atlantis and Gondor last year',
  ];
  const lookup = () => store;
  const now = new Date();
  let governed = 0;
  n = 0;
  const planning = timed(() => {
    const question = questions[n++ % questions.length]!;
    const period = findPeriod(question, { now, timezone: 'UTC' });
    if (planOffline(period ? question.replace(period.phrase, ' ') : question, index, { lookup }).kind === 'governed') governed++;
  }, RUNS);
  const metrics = index.reveals.reduce((sum, reveal) => sum + reveal.metrics.length, 0);
  lines.push(
    `  planning, ${metrics} metrics and this index behind every reveal (${questions.length} questions): p50 ${ms(planning.p50)} ms, p95 ${ms(planning.p95)} ms, p99 ${ms(planning.p99)} ms ` +
      `(target p50 < 10 ms ${planning.p50 < 10 ? 'met' : 'NOT MET'}); ${governed} of ${RUNS + 30} plans governed`,
  );
  return lines;
}
