// The periods the class questions name, as literal half-open UTC bounds [from, to). Now is Wednesday
// 2025-06-18 15:00 UTC (UNSEEN_NOW): "this year" runs to the end of today, and set beside "last year"
// it meets the same days a year before, as the semantic layer's `previous_year` comparison does
// (docs/queries.md); "last month" is May 2025, "last quarter" Q1 2025; a question without a period
// covers the last 30 complete days.
export type Period = readonly [from: string, to: string];

export const P = {
  y2023: ['2023-01-01', '2024-01-01'],
  y2024: ['2024-01-01', '2025-01-01'],
  ytd2025: ['2025-01-01', '2025-06-19'],
  ytd2024: ['2024-01-01', '2024-06-19'],
  q1_2024: ['2024-01-01', '2024-04-01'],
  q4_2024: ['2024-10-01', '2025-01-01'],
  q1_2025: ['2025-01-01', '2025-04-01'],
  // The current quarter, up to now: no row is later than now.
  q2_2025: ['2025-04-01', '2025-07-01'],
  dec2023: ['2023-12-01', '2024-01-01'],
  dec2024: ['2024-12-01', '2025-01-01'],
  feb2025: ['2025-02-01', '2025-03-01'],
  mar2025: ['2025-03-01', '2025-04-01'],
  apr2024: ['2024-04-01', '2024-05-01'],
  apr2025: ['2025-04-01', '2025-05-01'],
  may2024: ['2024-05-01', '2024-06-01'],
  may2025: ['2025-05-01', '2025-06-01'],
  last30: ['2025-05-19', '2025-06-18'],
} as const satisfies Record<string, Period>;

/** `column` within `period`, bounds written as literals of the column's type. */
export const within = (column: string, type: 'TIMESTAMP' | 'DATE', [from, to]: Period): string => `${column} >= ${type} '${from}' AND ${column} < ${type} '${to}'`;
