// Every mistake a `rollup` block can hold: the exact diagnostics, each at the token at fault. The rollup
// codes (CML207, CML701-707) are checked here rather than in diagnostic-codes.test.ts, which lists them.
import { describe, expect, it } from 'vitest';
import { compileModel } from './index.js';
import { diagnosticsOf, expectCase, shop, type DiagnosticCase } from './test-helpers.js';

/** A rollup of the shop's orders with `body` after its measures and refresh rule. */
function rollup(body: string, measures = 'revenue', before = ''): string {
  return shop(`${before}rollup daily { measures: [${measures}]  refresh: on_deploy  ${body} }`);
}

const PER_ROW = 'measure per_row { type: number  sql: ${revenue} / count(*) }\n  ';

const CASES: DiagnosticCase[] = [
  {
    code: 'CML207',
    name: 'two rollups of one node with one name',
    source: shop('rollup daily { measures: [revenue]  refresh: on_deploy }\n  rollup daily { measures: [order_count]  refresh: on_deploy }'),
    expect: [['CML207', ['rollup |daily', 2]]],
    message: /already has a rollup `daily` \(line 21\)/,
  },
  {
    code: 'CML701',
    name: 'a formula that aggregates source rows itself',
    source: rollup('', 'per_row', PER_ROW),
    expect: [['CML701', 'measures: [|per_row]']],
    message: /calls `count\(…\)` over the source rows itself.*make that aggregate a measure/,
  },
  {
    code: 'CML701',
    name: 'a ratio over such a formula, at the ratio, naming the input at fault',
    source: rollup('', 'share', `${PER_ROW}measure share { type: ratio  numerator: per_row  denominator: order_count }\n  `),
    expect: [['CML701', 'measures: [|share]']],
    message: /`share` cannot be in a rollup: it uses `per_row`, and its formula calls `count/,
  },
  {
    code: 'CML702',
    name: 'an hourly grain of a date dimension',
    source: rollup('time: ordered_on  grain: hour', 'revenue', 'dimension ordered_on { type: date }\n  '),
    expect: [['CML702', 'grain: |hour']],
    message: /is a date, which has no hours; use `grain: day`/,
  },
  {
    code: 'CML703',
    name: 'a partition finer than the grain',
    source: rollup('time: created_at  grain: month  partition: day'),
    expect: [['CML703', 'partition: |day']],
    message: /finer than the rollup's grain month.*partition by month or coarser/,
  },
  {
    code: 'CML703',
    name: 'a weekly rollup partitioned by month',
    source: rollup('time: created_at  grain: week  partition: month'),
    expect: [['CML703', 'partition: |month']],
    message: /weeks straddle months/,
  },
  {
    code: 'CML703',
    name: 'a partition without a time dimension',
    source: rollup('partition: month'),
    expect: [['CML703', 'partition: |month']],
    message: /add `time:` and `grain:`/,
  },
  {
    code: 'CML704',
    name: 'a refresh rule that is neither interval nor cron',
    source: shop('rollup daily { measures: [revenue]  refresh: "every hour" }'),
    expect: [['CML704', '"every hour"']],
    message: /neither an interval nor a cron expression/,
  },
  {
    code: 'CML704',
    name: 'a cron with a seconds field',
    source: shop('rollup daily { measures: [revenue]  refresh: "*/5 * * * * *" }'),
    expect: [['CML704', '"*/5']],
    message: /six fields.*at most once a minute/,
  },
  {
    code: 'CML704',
    name: 'a cron with a minute out of range',
    source: shop('rollup daily { measures: [revenue]  refresh: "61 3 * * *" }'),
    expect: [['CML704', '"61 3']],
    message: /not a valid cron expression/,
  },
  {
    code: 'CML704',
    name: 'an interval of nothing',
    source: shop('rollup daily { measures: [revenue]  refresh: "0 hours" }'),
    expect: [['CML704', '"0 hours"']],
    message: /never comes round/,
  },
  {
    code: 'CML704',
    name: 'a name other than on_deploy',
    source: shop('rollup daily { measures: [revenue]  refresh: hourly }'),
    expect: [['CML704', 'hourly']],
    message: /`on_deploy`, an interval/,
  },
  {
    code: 'CML705',
    name: 'a build range in an unknown unit',
    source: rollup('time: created_at  grain: day  build_range: "last 2 fortnights"'),
    expect: [['CML705', '"last 2 fortnights"']],
    message: /`fortnights` is not a unit/,
  },
  {
    code: 'CML705',
    name: 'a build range from a day the calendar lacks',
    source: rollup('time: created_at  grain: day  build_range: "from 2023-02-30"'),
    expect: [['CML705', '"from 2023-02-30"']],
    message: /not a date of the calendar/,
  },
  {
    code: 'CML705',
    name: 'a build range without a time dimension',
    source: rollup('build_range: "last 3 months"'),
    expect: [['CML705', '"last 3 months"']],
    message: /nothing to limit its rows by/,
  },
  {
    code: 'CML706',
    name: 'an unknown time zone',
    source: rollup('time: created_at  grain: day  timezone: "Mars/Olympus"'),
    expect: [['CML706', '"Mars/Olympus"']],
  },
  {
    code: 'CML706',
    name: 'an unknown time zone beside a cron, reported once',
    source: shop('rollup daily { measures: [revenue]  refresh: "0 3 * * *"  timezone: "Mars/Olympus" }'),
    expect: [['CML706', '"Mars/Olympus"']],
  },
  {
    code: 'CML707',
    name: 'a rollup without the dimension of a data key',
    source: rollup('dimensions: [id]', 'revenue', 'data_key by_status { dimension: status  attribute: team }\n  '),
    expect: [['CML707', 'rollup |daily']],
    message: /does not hold `status`, the dimension of data key `by_status`, so it answers only users whose `team` is `\*`; add `status`/,
  },
  {
    code: 'CML302',
    name: 'a misspelt dimension',
    source: rollup('dimensions: [statu]'),
    expect: [['CML302', 'statu]']],
    message: /no dimension `statu`; did you mean `status`\?/,
  },
  {
    code: 'CML302',
    name: 'a misspelt measure',
    source: rollup('', 'revenu'),
    expect: [['CML302', 'revenu]']],
    message: /no measure `revenu`; did you mean `revenue`\?/,
  },
  {
    code: 'CML304',
    name: 'a field of a joined node',
    source: rollup('dimensions: [status, customers.region]', 'revenue, customers.customer_count'),
    expect: [
      ['CML304', 'customers.customer_count'],
      ['CML304', 'customers.region'],
    ],
    message: /a rollup stores fields of its own node, so `customers.customer_count` \(reached through a join\) cannot be in its `measures:`/,
  },
  {
    code: 'CML305',
    name: 'a measure listed as a dimension',
    source: rollup('dimensions: [status, order_count]'),
    expect: [['CML305', 'order_count]']],
    message: /is a measure; list it in `measures:`/,
  },
  {
    code: 'CML305',
    name: 'a dimension as the time dimension of a rollup that is a measure',
    source: rollup('time: revenue  grain: day'),
    expect: [['CML305', 'time: |revenue']],
  },
  {
    code: 'CML403',
    name: 'a string dimension as the time dimension',
    source: rollup('time: status  grain: day'),
    expect: [['CML403', 'time: |status']],
  },
  {
    code: 'CML203',
    name: 'a dimension listed twice',
    source: rollup('dimensions: [status, status]'),
    expect: [['CML203', ['status]', 1]]],
  },
  {
    code: 'CML105',
    name: 'the time dimension listed as a dimension too',
    source: rollup('dimensions: [created_at]  time: created_at  grain: day'),
    expect: [['CML105', 'dimensions: [|created_at]']],
    message: /would store every instant/,
  },
  {
    code: 'CML104',
    name: 'a rollup without measures or refresh rule',
    source: shop('rollup daily { dimensions: [status] }'),
    expect: [
      ['CML104', 'rollup |daily'],
      ['CML104', 'rollup |daily'],
    ],
  },
  {
    code: 'CML104',
    name: 'a time dimension without a grain',
    source: rollup('time: created_at'),
    expect: [['CML104', 'rollup |daily']],
    message: /needs `grain:`/,
  },
  {
    code: 'CML101',
    name: 'an unknown property, with the closest',
    source: rollup('time: created_at  grain: day  partiton: month'),
    expect: [['CML101', 'partiton']],
    message: /did you mean `partition`\?/,
  },
  {
    code: 'CML103',
    name: 'a grain that is no grain',
    source: rollup('time: created_at  grain: fortnight'),
    expect: [['CML103', 'fortnight']],
  },
];

describe('rollup diagnostics', () => {
  for (const c of CASES) it(`${c.code}: ${c.name}`, () => expectCase(c));

  it('CML707 is a warning: the model is kept', () => {
    const source = rollup('', 'revenue', 'data_key by_status { dimension: status  attribute: team }\n  ');
    const result = compileModel([{ path: 'model.cml', content: source }]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['CML707']);
    expect(result.model?.nodes.get('orders')?.rollups.map((r) => r.name)).toEqual(['daily']);
    expect(diagnosticsOf(rollup('dimensions: [status]', 'revenue', 'data_key by_status { dimension: status  attribute: team }\n  '))).toEqual([]);
  });

  it('accepts every refresh form, build range, grain and partition that fit', () => {
    const forms = ['refresh: on_deploy', 'refresh: "15 minutes"', 'refresh: "1 week"', 'refresh: "0 3 * * 1-5"  timezone: "Europe/Paris"'];
    const ranges = ['', 'build_range: "last 24 months"', 'build_range: "from 2024-02-29"', 'build_range: "last 1 year"'];
    const grains: Array<[string, string]> = [
      ['hour', 'day'],
      ['day', 'week'],
      ['day', 'month'],
      ['week', 'week'],
      ['month', 'quarter'],
      ['quarter', 'year'],
      ['year', 'year'],
    ];
    for (const refresh of forms) {
      for (const range of ranges) {
        for (const [grain, partition] of grains) {
          const source = shop(`rollup r { measures: [revenue]  ${refresh}  time: created_at  grain: ${grain}  partition: ${partition}  ${range} }`);
          expect(diagnosticsOf(source), source).toEqual([]);
        }
      }
    }
  });
});
