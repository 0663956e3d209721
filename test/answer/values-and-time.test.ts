// Words that are both a metric and a value, a value inside a metric's name, short stems that are not
// typos, and questions that bound time themselves: each once made a governed plan state another number
// than the one asked for. Invented help-desk and school models, values as the caller would look them up.
import { describe, expect, it } from 'vitest';
import { buildCatalogIndex } from '../../src/core/answer/catalog-index.js';
import { planOffline } from '../../src/core/answer/offline-planner.js';
import { readWords } from '../../src/core/answer/question-shape.js';
import { asksAsOfNow, valueNamesYear, withoutPeriodPhrase } from '../../src/core/answer/time-bounds.js';
import { compileModel } from '../../src/core/cml/index.js';

const CML = `
node tickets {
  connection: wh
  table: desk.tickets
  dimension id        { type: number  primary_key: true  hidden: true }
  dimension status    { type: string }
  dimension queue     { type: string }
  dimension mode      { type: string  label: "Contact mode" }
  dimension buyer     { type: string }
  dimension cohort    { type: string  label: "Customer cohort" }
  dimension opened_at { type: timestamp }
  dimension minutes   { type: number  hidden: true }
  measure ticket_count    { type: count }
  measure refunded_count  { type: count  filter: \${status} = 'refunded' }
  measure reply_minutes   { type: avg  sql: \${minutes} }
}
reveal support {
  domain: desk
  label: "Support"
  base: tickets
  time: tickets.opened_at
  metric tickets          { label: "Tickets"  measure: tickets.ticket_count }
  metric refunds          { label: "Refunds"  synonyms: [reembolsos]  measure: tickets.refunded_count }
  metric first_reply_time { label: "First reply time"  measure: tickets.reply_minutes }
}
`;
const model = compileModel([{ path: 'desk.cml', content: CML }]).model!;
const index = buildCatalogIndex(model);
const values = new Map([
  ['status', ['open', 'refunded', 'closed']],
  ['queue', ['billing', 'first reply', 'IN']],
  ['mode', ['phone', 'email', 'chat']],
  ['cohort', ['2023/24 intake', 'Class of 2019']],
]);
const plan = (question: string) => planOffline(question, index, { values: () => values });

describe('a metric word that is also a value of the reveal', () => {
  it.each(['How many tickets were refunded?', 'refunded tickets', 'tickets refunded'])('"%s" counts tickets filtered on the status, not two metrics', (question) => {
    expect(plan(question)).toMatchObject({ kind: 'governed', metrics: ['tickets'], filters: [{ field: 'status', operator: 'equals', value: 'refunded' }] });
  });

  it.each(['tickets and refunds', 'tickets y reembolsos'])('"%s" joins two metrics with a connector', (question) => {
    expect(plan(question)).toMatchObject({ kind: 'governed', metrics: ['tickets', 'refunds'], filters: [] });
  });
});

describe('a value of several words inside the whole name of a metric', () => {
  it('"first reply time" is the metric, not the time of the queue "first reply"', () => {
    expect(plan('first reply time')).toMatchObject({ kind: 'governed', metrics: ['first_reply_time'], filters: [] });
  });

  it('the value alone still filters', () => {
    expect(plan('tickets in the first reply queue')).toMatchObject({ kind: 'governed', metrics: ['tickets'], filters: [{ field: 'queue', value: 'first reply' }] });
  });
});

describe('short stems are not typos', () => {
  it.each([
    ['moved', 'move'],
    ['bought', 'buy'],
  ])('"%s" keeps its stem "%s" (one letter from a catalog word is not a typo of it)', (word, stem) => {
    const [read] = readWords(word, index, { has: () => false });
    expect(read).toMatchObject({ stem, corrected: false });
  });

  it('long words are still corrected', () => {
    expect(readWords('tikcets', index, { has: () => false })[0]).toMatchObject({ stem: 'ticket', corrected: true });
  });
});

describe('questions that bound time themselves', () => {
  it.each([
    'tickets open right now',
    'how many tickets are currently refunded',
    'tickets at the moment',
    'tickets abiertos ahora mismo',
    'tickets actuellement escaladés',
    'Tickets derzeit offen',
    'tickets atualmente abertos',
  ])('"%s" asks as of now', (question) => {
    expect(asksAsOfNow(question)).toBe(true);
  });

  it.each(['tickets last week', 'snowfall known nowhere', 'the current queue', 'tickets in november'])('"%s" does not', (question) => {
    expect(asksAsOfNow(question)).toBe(false);
  });

  it('a value naming a year bounds the rows; other values do not', () => {
    expect(valueNamesYear('2023/24 intake')).toBe(true);
    expect(valueNamesYear(['phone', 'Class of 2019'])).toBe(true);
    expect(valueNamesYear('FY2024')).toBe(true);
    expect(valueNamesYear('Room 12345')).toBe(false);
    expect(valueNamesYear('billing')).toBe(false);
  });

  it('a code in capitals before a period stays in the question; a preposition does not', () => {
    expect(withoutPeriodPhrase('tickets from IN last year', 'IN last year')).toBe('tickets from IN ');
    expect(withoutPeriodPhrase('tickets in last year', 'in last year')).toBe('tickets  ');
    expect(withoutPeriodPhrase('In 2024, how many tickets', 'In 2024')).toBe(' , how many tickets');
    expect(withoutPeriodPhrase('TICKETS IN 2024', 'IN 2024')).toBe('TICKETS  ');
    expect(plan(withoutPeriodPhrase('tickets from the IN queue last year', 'last year'))).toMatchObject({ kind: 'governed', filters: [{ field: 'queue', value: 'IN' }] });
  });
});
