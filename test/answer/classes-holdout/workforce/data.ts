// HELD BACK: this domain is kept out of planner development. Nobody changing the question planner
// reads these files; their figures are reported apart, as a check on what the planner learnt.
//
// A company's internal mobility: one row per employee move from one department to another, on the
// day it took effect (a promotion in place is no move). Both departments are ids into one departments
// table. Salaries are yearly, in US dollars; the reason is recorded for some moves only.
import { createRng, intBetween, WeightedPicker } from '../../../../src/core/demo/prng.js';
import { DAY_MS, dayMs, days, normal } from '../../unseen/generate-support.js';
import type { Cell, TableData } from '../../unseen/types.js';

const SEED = 8604;
const FIRST_DAY = '2023-01-01';

// id, name, division, share of the moves, typical salary
const DEPARTMENTS: ReadonlyArray<readonly [number, string, string, number, number]> = [
  [1, 'Sales', 'Commercial', 16, 72_000],
  [2, 'Marketing', 'Commercial', 9, 70_000],
  [3, 'Customer Support', 'Commercial', 14, 48_000],
  [4, 'Engineering', 'Technology', 20, 98_000],
  [5, 'Product', 'Technology', 8, 95_000],
  [6, 'Data', 'Technology', 7, 92_000],
  [7, 'Finance', 'Corporate', 8, 78_000],
  [8, 'Legal', 'Corporate', 4, 96_000],
  [9, 'Operations', 'Corporate', 14, 60_000],
];

const OFFICES: ReadonlyArray<readonly [string, number]> = [
  ['Berlin', 30],
  ['Toronto', 25],
  ['Austin', 25],
  ['Singapore', 12],
  ['Lisbon', 8],
];
const REASONS: ReadonlyArray<readonly [string | null, number]> = [
  [null, 45],
  ['career growth', 25],
  ['reorganisation', 15],
  ['relocation request', 8],
  ['manager request', 7],
];
const EMPLOYEES = 2600;

function moves(): Cell[][] {
  const rng = createRng(SEED, 1);
  const departmentPicker = new WeightedPicker(DEPARTMENTS, DEPARTMENTS.map((d) => d[3]));
  const officePicker = new WeightedPicker(OFFICES, OFFICES.map((o) => o[1]));
  const reasonPicker = new WeightedPicker(REASONS, REASONS.map((r) => r[1]));
  const rows: Cell[][] = [];
  let id = 0;
  for (const day of days(FIRST_DAY, '2025-06-19')) {
    const start = dayMs(day);
    const date = new Date(start);
    if ([0, 6].includes(date.getUTCDay())) continue;
    // Moves cluster at the start of a quarter; mobility grew after a 2024 reorganisation.
    const quarterStart = date.getUTCDate() <= 3 && date.getUTCMonth() % 3 === 0 ? 4 : 1;
    const growth = day >= '2024-04-01' ? 1.3 : 1;
    const perDay = Math.round(3.1 * quarterStart * growth * (0.5 + rng()));
    for (let n = 0; n < perDay; n++) {
      const from = departmentPicker.pick(rng);
      const kindDraw = rng();
      const kind = kindDraw < 0.38 ? 'promotion' : kindDraw < 0.85 ? 'lateral' : 'relocation';
      let to = departmentPicker.pick(rng);
      if (to[0] === from[0]) to = DEPARTMENTS[(DEPARTMENTS.indexOf(from) + 1 + intBetween(rng, 0, 7)) % DEPARTMENTS.length]!;
      const before = Math.round(from[4] * Math.exp(normal(rng) * 0.2) / 100) * 100;
      const raise = kind === 'promotion' ? 0.08 + rng() * 0.12 : kind === 'lateral' ? rng() * 0.05 : rng() * 0.03;
      const after = Math.round((before * (1 + raise) + (to[4] - from[4]) * 0.2) / 100) * 100;
      rows.push([
        ++id,
        new Date(start + intBetween(rng, 0, 2) * DAY_MS).toISOString().slice(0, 10),
        intBetween(rng, 1, EMPLOYEES),
        from[0],
        to[0],
        officePicker.pick(rng)[0],
        kind,
        before * 100,
        Math.max(after, before) * 100,
        reasonPicker.pick(rng)[0],
      ]);
    }
  }
  // A move dated after the last day is not recorded yet.
  return rows.filter((row) => (row[1] as string) < '2025-06-19');
}

export function workforceTables(): TableData[] {
  return [
    {
      name: 'departments',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'division', type: 'VARCHAR' },
      ],
      rows: DEPARTMENTS.map(([deptId, name, division]) => [deptId, name, division]),
    },
    {
      name: 'moves',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'moved_on', type: 'DATE' },
        { name: 'employee_id', type: 'INTEGER' },
        { name: 'from_department_id', type: 'INTEGER' },
        { name: 'to_department_id', type: 'INTEGER' },
        { name: 'office', type: 'VARCHAR' },
        { name: 'kind', type: 'VARCHAR' },
        { name: 'salary_before', type: 'DECIMAL(12,2)' },
        { name: 'salary_after', type: 'DECIMAL(12,2)' },
        { name: 'reason', type: 'VARCHAR' },
      ],
      rows: moves(),
    },
  ];
}
