// A mirror's answers kept for the next time the same statement comes: its contents never change (a new
// model version makes a new mirror), so a statement whose answer depends only on its text, parameters
// and the settings it ran under (statement-analysis.ts says which) gets the same answer, PostgreSQL's
// own bytes, without crossing to the mirror's thread. psql's \d sends the same eight statements for a
// table every time; a BI tool syncing its catalog sends the same ones from every connection.
// Descriptions (Parse, Describe) are kept always: they run nothing, and depend only on the catalog.
import { LRUCache } from 'lru-cache';
import type { CatalogResult, RunOptions, SessionSettings, StatementDescription } from './wire-exchange.js';

/** Bytes of answers one mirror keeps at most, and the largest answer kept (a bigger one is run each time). */
const MAX_BYTES = 4 * 1024 * 1024;
const MAX_ANSWER_BYTES = 1024 * 1024;

// What an answer costs beyond its values' bytes: a row's and a value's array slot and Buffer, a field's
// description: rough figures, so that many small values count for more than their bytes.
const ROW_BYTES = 32;
const VALUE_BYTES = 16;
const FIELD_BYTES = 96;

type Answer = CatalogResult | StatementDescription;

function settingsKey(settings: SessionSettings | undefined): [string, string][] {
  return Object.entries(settings ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A run's key: everything its answer can depend on besides the mirror. */
export function runKey(sql: string, params: readonly (string | null)[], options: RunOptions): string {
  return JSON.stringify(['run', sql, params, options.paramTypes ?? [], options.maxRows ?? 0, settingsKey(options.settings)]);
}

export function describeKey(sql: string, paramTypes: readonly number[], settings: SessionSettings | undefined): string {
  return JSON.stringify(['describe', sql, paramTypes, settingsKey(settings)]);
}

function sizeOf(answer: Answer, key: string): number {
  let bytes = 2 * key.length + FIELD_BYTES * (answer.fields?.length ?? 0);
  if ('rows' in answer) {
    for (const row of answer.rows) {
      bytes += ROW_BYTES;
      for (const value of row) bytes += VALUE_BYTES + (value?.length ?? 0);
    }
  } else {
    bytes += 8 * answer.paramTypes.length;
  }
  return bytes;
}

export class KeptAnswers {
  private readonly answers = new LRUCache<string, Answer>({
    maxSize: MAX_BYTES,
    maxEntrySize: MAX_ANSWER_BYTES,
    sizeCalculation: sizeOf,
  });
  private hitCount = 0;

  run(key: string): CatalogResult | undefined {
    return this.hit(this.answers.get(key) as CatalogResult | undefined);
  }

  description(key: string): StatementDescription | undefined {
    return this.hit(this.answers.get(key) as StatementDescription | undefined);
  }

  keep(key: string, answer: Answer): void {
    this.answers.set(key, answer);
  }

  /** Answers given from here, answers kept and their bytes: for tests and the record. */
  get stats(): { hits: number; entries: number; bytes: number } {
    return { hits: this.hitCount, entries: this.answers.size, bytes: this.answers.calculatedSize };
  }

  private hit<T>(answer: T | undefined): T | undefined {
    if (answer !== undefined) this.hitCount++;
    return answer;
  }
}
