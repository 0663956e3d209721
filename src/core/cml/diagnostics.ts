// What CML tells its author. Mistakes in a model are data, not exceptions: the lexer, parser and linker
// all report into one sink and keep going, so a single run shows every problem with its own position.
// Codes are stable (documented in docs/cml.md); messages may improve over time.
import type { SourceSpan } from '../semantic/model.js';

export type Severity = 'error' | 'warning';

/** 1-based lines and columns (columns count UTF-16 code units); end is exclusive. */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export const DIAGNOSTIC_CODES = {
  // Syntax: lexer and parser.
  CML001: { severity: 'error', title: 'unexpected character' },
  CML002: { severity: 'error', title: 'unterminated string' },
  CML003: { severity: 'error', title: 'malformed reference' },
  CML004: { severity: 'error', title: 'syntax error' },
  CML005: { severity: 'error', title: 'unclosed block' },
  CML006: { severity: 'error', title: 'missing value' },
  CML007: { severity: 'error', title: 'property inside one-line SQL' },
  // Properties of a block.
  CML101: { severity: 'error', title: 'unknown property' },
  CML102: { severity: 'error', title: 'wrong kind of value' },
  CML103: { severity: 'error', title: 'value not allowed' },
  CML104: { severity: 'error', title: 'missing required property' },
  CML105: { severity: 'error', title: 'conflicting properties' },
  CML106: { severity: 'error', title: 'duplicate property' },
  CML107: { severity: 'error', title: 'property does not apply to the measure type' },
  // Names.
  CML201: { severity: 'error', title: 'duplicate node' },
  CML202: { severity: 'error', title: 'duplicate reveal' },
  CML203: { severity: 'error', title: 'duplicate field' },
  CML204: { severity: 'error', title: 'duplicate metric' },
  CML205: { severity: 'error', title: 'duplicate join or data key' },
  CML206: { severity: 'error', title: 'join role name not allowed' },
  CML207: { severity: 'error', title: 'duplicate rollup' },
  // References.
  CML301: { severity: 'error', title: 'unknown node' },
  CML302: { severity: 'error', title: 'unknown field' },
  CML303: { severity: 'error', title: 'unknown metric or measure' },
  CML304: { severity: 'error', title: 'reference not allowed here' },
  CML305: { severity: 'error', title: 'wrong kind of field' },
  CML306: { severity: 'error', title: 'reference cycle' },
  CML307: { severity: 'error', title: 'unknown join role' },
  // Types.
  CML401: { severity: 'error', title: 'aggregate of a non-numeric dimension' },
  CML402: { severity: 'error', title: 'filter on a number or ratio measure' },
  CML403: { severity: 'error', title: 'time dimension is not a date or timestamp' },
  CML404: { severity: 'error', title: 'time scope needs a time dimension' },
  CML405: { severity: 'error', title: 'ratio of a measure that is not a number' },
  // Joins and reveals.
  CML501: { severity: 'error', title: 'join condition does not reference the joined node' },
  CML502: { severity: 'error', title: 'join across connections' },
  CML503: { severity: 'error', title: 'node joins itself' },
  CML504: { severity: 'error', title: 'node not reachable from the base' },
  CML505: { severity: 'warning', title: 'metrics cross a fan-out' },
  // Rollups (pre-aggregations).
  CML701: { severity: 'error', title: 'measure does not re-aggregate' },
  CML702: { severity: 'error', title: 'rollup grain finer than the time dimension' },
  CML703: { severity: 'error', title: 'partition does not fit the rollup grain' },
  CML704: { severity: 'error', title: 'invalid refresh rule' },
  CML705: { severity: 'error', title: 'invalid build range' },
  CML706: { severity: 'error', title: 'unknown time zone' },
  CML707: { severity: 'warning', title: 'rollup without a data key dimension' },
  // Vocabulary and prose: warnings, the model is kept.
  CML601: { severity: 'warning', title: 'unknown unit' },
  // Planner vocabulary, checked by `svc model validate` (src/core/answer/vocabulary-check.ts).
  CML602: { severity: 'warning', title: 'metric words collide with another metric' },
  CML603: { severity: 'warning', title: 'metric words collide with a dimension' },
  CML604: { severity: 'warning', title: 'no synonyms in a declared language' },
  CML605: { severity: 'warning', title: 'one value word for two stored values' },
} as const satisfies Record<string, { severity: Severity; title: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** Collects diagnostics of one compilation, across files. */
export class DiagnosticSink {
  readonly diagnostics: Diagnostic[] = [];
  private errors = 0;

  report(code: DiagnosticCode, span: SourceSpan, message: string): void {
    const severity = DIAGNOSTIC_CODES[code].severity;
    if (severity === 'error') this.errors++;
    this.diagnostics.push({ code, severity, message, file: span.file, line: span.line, column: span.column, endLine: span.endLine, endColumn: span.endColumn });
  }

  get hasErrors(): boolean {
    return this.errors > 0;
  }

  /** By file, then position; the order a reader walks the model in. */
  sorted(): Diagnostic[] {
    return sortDiagnostics(this.diagnostics);
  }
}

/** By file, then position, then code. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

/** `file:line:col: error CODE message`, the shape editors and CI logs recognise. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}`;
}
