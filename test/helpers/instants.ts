// The fixed instants a date-sensitive test runs under, so that what it checks holds on any day rather
// than on the one the suite happened to run: each day of one week, the last half hour of a month and of a
// year, and both daylight-saving changes of Europe/Paris (a zone tests give workspaces). The zones beside
// them reach the furthest from UTC, on whole and half hours, so that a zone's date differs from UTC's.
// scripts/test-at-instants.ts runs whole test files at the same instants (README, Development).

export interface Instant {
  readonly label: string;
  readonly at: Date;
}

const instant = (label: string, iso: string): Instant => ({ label, at: new Date(iso) });

/** Monday 30 November to Sunday 6 December 2026, mid-morning UTC: a week that crosses a month's end. */
export const WEEK: readonly Instant[] = [
  instant('Monday', '2026-11-30T10:00:00Z'),
  instant('Tuesday', '2026-12-01T10:00:00Z'),
  instant('Wednesday', '2026-12-02T10:00:00Z'),
  instant('Thursday', '2026-12-03T10:00:00Z'),
  instant('Friday', '2026-12-04T10:00:00Z'),
  instant('Saturday', '2026-12-05T10:00:00Z'),
  instant('Sunday', '2026-12-06T10:00:00Z'),
];

export const EDGES: readonly Instant[] = [
  instant('a Sunday, late', '2026-12-06T23:30:00Z'),
  instant("a month's last half hour", '2026-04-30T23:30:00Z'),
  instant("a year's last half hour", '2026-12-31T23:30:00Z'),
  // 03:30 in Paris, an hour and a half after the clocks went forward (a 23-hour day there).
  instant('the spring daylight-saving change', '2026-03-29T01:30:00Z'),
  // 02:30 in Paris, half an hour before the clocks go back (a 25-hour day there).
  instant('the autumn daylight-saving change', '2026-10-25T00:30:00Z'),
];

export const INSTANTS: readonly Instant[] = [...WEEK, ...EDGES];

/** UTC; a zone with daylight saving; UTC−3:30 (−2:30 in summer); UTC+14, a day ahead of UTC most hours. */
export const ZONES = ['UTC', 'Europe/Paris', 'America/St_Johns', 'Pacific/Kiritimati'] as const;
