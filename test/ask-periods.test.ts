// POST /api/v1/ask with halves, ranges and open ranges on the operations model (test/helpers/ops-model.ts):
// the period's phrase is cut out whole so the planner answers over the range, and the phrases the
// grammar refuses (one-sided, reversed) never come back as a governed number; a change between two
// ends is two periods side by side (compared-periods.ts), never one sum over the range.
// 64 tickets: 58 opened three days ago, 6 opened 400 days ago.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsAsk, type OpsAsk } from './helpers/ops-ask.js';

const ALL_TICKETS = 64;
let ops: OpsAsk;

beforeAll(async () => {
  ops = await startOpsAsk('ask-periods');
}, 60_000);
afterAll(() => ops.close());

const ask = (question: string) => ops.ask(question);

describe('ranges and open ranges are answered over the whole range', () => {
  it.each([
    ['tickets since 2020', 'since_2020', ALL_TICKETS],
    ['tickets between 2020 and 2100', '2020..2100', ALL_TICKETS],
    ['how many tickets from 2020 to 2100 by region', '2020..2100', ALL_TICKETS],
    ['tickets from January to June 2001', '2001_01..2001_06', 0],
    ['tickets Q1–Q3 2001', '2001_q1..2001_q3', 0],
    ['tickets in the first half of 2001', '2001_h1', 0],
  ])('%s', async (question, period, value) => {
    const body = await ask(question);
    expect(body.provenance).toMatchObject({ reveal_backed: true, confidence: 'high' });
    expect(body.data).toMatchObject({ metric: 'tickets', period, value });
  });

  it('names the range in the prose with its dates', async () => {
    const body = await ask('tickets from January to June 2001');
    expect(body.answer).toMatch(/^Tickets for January 2001 to June 2001 \(2001-01-01 to 2001-06-30\) was 0\./);
  });
});

describe('periods the grammar refuses are never a governed number', () => {
  it.each([
    'tickets before 2020',
    'tickets until March 2019',
    'tickets from June to January 2019',
    'compare tickets 2023 to 2024',
    'tickets on May 3, 2024',
    'tickets in the second half of the match',
  ])('%s', async (question) => {
    const body = await ask(question);
    expect(body.provenance.reveal_backed).toBe(false);
    expect(body.provenance.confidence).not.toBe('high');
    expect(body.data.value).toBeUndefined();
  });

  it('reads a change between two ends as two periods side by side, never one sum over the range', async () => {
    const body = await ask('ticket growth from 2023 to 2024');
    expect(body.provenance.reveal_backed).toBe(true);
    expect(body.data.period).toBe('2024');
    expect(Object.keys(body.data.rows[0])).toEqual(expect.arrayContaining(['tickets', 'tickets.comparison', 'tickets.change']));
  });
});
