// CML compile time on a large generated model: 1,000 nodes of 10 dimensions and 5 measures, each
// joined to the one before it, and a reveal for every tenth node. Target: parse + link under 300 ms
// (median of several runs, after a warm-up). Run alone with `npx tsx bench/cml-bench.ts`.
import { pathToFileURL } from 'node:url';
import { compileModel, type CmlFile } from '../src/core/cml/index.js';

const TARGET_MS = 300;
const RUNS = 9;

/** A valid model of `nodeCount` nodes split over files of 50 nodes, with a reveal per tenth node. */
export function generateLargeModel(nodeCount: number): CmlFile[] {
  const files: CmlFile[] = [];
  let text = '';
  for (let i = 0; i < nodeCount; i++) {
    text += generateNode(i);
    if (i % 10 === 9) text += generateReveal(i);
    if (i % 50 === 49 || i === nodeCount - 1) {
      files.push({ path: `generated/part_${String(files.length).padStart(3, '0')}.cml`, content: text });
      text = '';
    }
  }
  return files;
}

function generateNode(i: number): string {
  const join =
    i === 0
      ? ''
      : `
  join n${i - 1} {
    relationship: many_to_one
    on: \${n${i}.parent_id} = \${n${i - 1}.id}
  }`;
  return `
# Generated node ${i}.
node n${i} {
  label: "Node ${i}"
  description: "Generated node number ${i}."
  domain: bench
  connection: warehouse
  table: bench.table_${i}
  tags: [generated, "group ${i % 7}"]

  dimension id          { type: number  primary_key: true }
  dimension parent_id   { type: number  hidden: true }
  dimension name        { type: string }
  dimension status      { type: string  description: "Lifecycle status." }
  dimension region      { type: string  sql: \${TABLE}.region_code }
  dimension amount      { type: number }
  dimension quantity    { type: number }
  dimension is_active   { type: boolean }
  dimension created_at  { type: timestamp }
  dimension day         { type: date  sql: cast(\${created_at} as date) }

  measure row_count     { type: count  label: "Rows" }
  measure total_amount  { type: sum  format: currency  sql: \${amount} }
  measure active_amount {
    type: sum  format: currency
    sql: \${amount}
    filter: \${is_active} and \${status} <> 'deleted'
  }
  measure distinct_names { type: count_distinct  sql: \${name} }
  measure average_amount { type: number  format: currency  sql: \${total_amount} / nullif(\${row_count}, 0) }
${join}
  data_key region { dimension: region  attribute: region }
}
`;
}

function generateReveal(i: number): string {
  const parent = i - 1;
  return `
reveal r${i} {
  domain: bench
  label: "Reveal ${i}"
  base: n${i}
  time: n${i}.created_at
  metric total    { label: "Total"  unit: dollars  synonyms: [sum, "grand total"]  measure: n${i}.total_amount }
  metric rows     { unit: count  measure: row_count }
  metric active   { unit: dollars  measure: n${i}.active_amount }
  metric parent_total { unit: dollars  measure: n${parent}.total_amount }
  metric average  { unit: dollars  format: currency  expr: \${total} / nullif(\${rows}, 0) }
}
`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchCml(): Promise<string[]> {
  const files = generateLargeModel(1000);
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  const first = compileModel(files);
  if (!first.model || first.diagnostics.length > 0) {
    return [`CML bench model did not compile cleanly: ${first.diagnostics.length} diagnostics, first: ${first.diagnostics[0]?.message}`];
  }
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    compileModel(files);
    times.push(performance.now() - start);
  }
  const ms = median(times);
  const { nodes, reveals } = first.model;
  return [
    `CML parse + link: ${nodes.size} nodes, ${reveals.size} reveals, ${(bytes / 1024).toFixed(0)} KiB in ${files.length} files`,
    `  median of ${RUNS} runs ${ms.toFixed(1)} ms (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})   target < ${TARGET_MS} ms ${ms < TARGET_MS ? 'met' : 'NOT MET'}`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchCml()) console.log(line);
}
