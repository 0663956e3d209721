// The answer object of POST /api/v1/ask (spec 2.3), plus two optional parts documented in
// docs/answers.md: `no_match` when nothing could answer, `raw_sql` when the SQL fallback answered.

export interface Answer {
  answer: string;
  data: { rows: Record<string, unknown>[]; columns: string[]; metric?: string; value?: number; period?: string };
  provenance: {
    source: 'semantic layer' | 'raw SQL';
    reveal?: string;
    reveal_backed: boolean;
    freshness: string | null;
    confidence: 'high' | 'medium';
  };
  usage: { tokens_used: number; latency_ms: number };
  /** Only when nothing answers: why, and what comes closest. */
  no_match?: { reason: string; closest: Array<{ reveal: string; metric: string; label: string }> };
  /** Only when the SQL fallback answered: the statement that ran, and where. */
  raw_sql?: { sql: string; connection: string };
}
