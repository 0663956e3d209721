// POST /api/v1/ask with two periods side by side, on the operations model (test/helpers/ops-model.ts):
// 58 tickets three days before now and 6 more 400 days before, half of them in each region. The years
// are worked out from the test clock, so the figures hold at whatever instant the suite runs. Both
// values and the change come from one governed query; data keys apply to both periods alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsAsk, type OpsAsk } from './helpers/ops-ask.js';

const DAY_MS = 86_400_000;
let ops: OpsAsk;
let recentYear: number;
let earlierYear: number;

beforeAll(async () => {
  ops = await startOpsAsk('ask-compare');
  const now = ops.t.clock.now().getTime();
  recentYear = new Date(now - 3 * DAY_MS).getUTCFullYear();
  earlierYear = new Date(now - 400 * DAY_MS).getUTCFullYear();
}, 60_000);
afterAll(() => ops.close());

const ask = (question: string, key?: string) => ops.ask(question, key);

describe('two named periods', () => {
  it('states both values and the change, in the current period named first', async () => {
    const body = await ask(`How many more tickets were there in ${recentYear} than in ${earlierYear}?`);
    expect(body.provenance).toMatchObject({ reveal: 'support', reveal_backed: true, confidence: 'high' });
    expect(body.data).toMatchObject({ metric: 'tickets', value: 58, period: String(recentYear) });
    expect(body.data.rows).toEqual([expect.objectContaining({ tickets: 58, 'tickets.comparison': 6, 'tickets.change': 52 })]);
    expect(body.answer).toMatch(new RegExp(`^Tickets for ${recentYear} \\(.*\\) was 58, against 6 for ${earlierYear} \\(.*\\): up 52 \\(\\+866\\.67%\\)\\.`));
  });

  it('reads "from … to" with the later period current', async () => {
    const body = await ask(`change in tickets from ${earlierYear} to ${recentYear}`);
    expect(body.data.rows).toEqual([expect.objectContaining({ tickets: 58, 'tickets.comparison': 6 })]);
  });

  it('applies the asker\'s data keys to both periods', async () => {
    const body = await ask(`tickets in ${recentYear} compared with ${earlierYear}`, await ops.viewerKey({ region: 'north' }));
    // North: 30 of the recent tickets and 3 of the 6 earlier ones.
    expect(body.data.rows).toEqual([expect.objectContaining({ tickets: 30, 'tickets.comparison': 3, 'tickets.change': 27 })]);
  });
});

describe('a breakdown', () => {
  it('sets each group beside itself, largest first, the group without a team labelled', async () => {
    const body = await ask(`tickets by team in ${recentYear} vs ${earlierYear}`);
    expect(body.provenance).toMatchObject({ reveal_backed: true, confidence: 'high' });
    const byTeam = Object.fromEntries(body.data.rows.map((row: Record<string, unknown>) => [String(row['team']), [row['tickets'], row['tickets.comparison']]]));
    // A team with no tickets then has no value there, as the semantic layer answers (docs/queries.md).
    expect(byTeam).toEqual({ null: [20, null], alpha: [15, 6], beta: [10, null], gamma: [8, null], delta: [5, null] });
    expect(body.answer).toMatch(new RegExp(`^Tickets for ${recentYear} \\(.*\\), by team, against ${earlierYear} \\(.*\\): \\(none\\) 20 \\(none in ${earlierYear}\\), alpha 15 against 6 \\(up 9 \\(\\+150%\\)\\), beta 10 \\(none in ${earlierYear}\\)`));
  });
});

describe('one period and the one before it', () => {
  it('the last 30 days against the 30 days before: nothing then, so no percentage', async () => {
    const body = await ask('tickets in the last 30 days compared with the previous period');
    expect(body.data.rows).toEqual([expect.objectContaining({ tickets: 58, 'tickets.comparison': 0, 'tickets.change': 58 })]);
    expect(body.answer).toMatch(/was 58, against 0 for the 30 days before \(\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\): up 58\./);
  });
});

describe('what is not a comparison of two periods is declined', () => {
  it.each([
    'How many more tickets than last year?',
    'tickets this year against the target',
    'top 3 teams by tickets this year vs last year',
  ])('%s', async (question) => {
    const body = await ask(question);
    expect(body.provenance.reveal_backed).toBe(false);
    expect(body.data.value).toBeUndefined();
  });

  it('says why a ranking is not set beside another period', async () => {
    const body = await ask('top 3 teams by tickets this year vs last year');
    expect(body.answer).toContain('also asks for a ranking');
  });
});
