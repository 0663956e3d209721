// Readings the planner was missing, each a class of question rather than one question, asked of
// models written apart from the sets that showed them (reading-catalogs.ts: a clinic, a courier).
// A reading either yields the plan that answers the question as asked or the question is declined;
// the declines here are the near misses a careless reading would answer wrongly.
import { describe, expect, it } from 'vitest';
import type { AnswerPlan } from '../../src/core/answer/plan.js';
import { planReading as plan } from './reading-catalogs.js';

const eq = (field: string, value: string) => ({ field, operator: 'equals', value });
const not = (field: string, value: string) => ({ field, operator: 'notEquals', value });
/** The parts of a governed plan these tests look at, filters sorted by field; a decline as it is. */
const shape = (result: AnswerPlan) =>
  result.kind === 'governed'
    ? {
        metrics: result.metrics,
        filters: [...result.filters].sort((a, b) => a.field.localeCompare(b.field)),
        ...(result.dimensions.length > 0 ? { dimensions: result.dimensions } : {}),
        ...(result.per ? { per: result.per } : {}),
        ...(result.share ? { share: result.share } : {}),
      }
    : result.kind;

describe('a value spelt with grammar words, joined by hyphens ("no-show")', () => {
  it.each([
    ['no-show appointments in cardiology', ['appointments'], [eq('department', 'cardiology'), eq('status', 'no-show')]],
    ['show me the no-show appointments', ['appointments'], [eq('status', 'no-show')]],
    ['fees billed for appointments on the all-in plan', ['fees'], [eq('plan', 'all-in')]],
  ] as const)('"%s"', (question, metrics, filters) => {
    expect(shape(plan(question))).toEqual({ metrics, filters });
  });

  it('leaves the same words apart as grammar, and then declines what they leave unexplained', () => {
    expect(plan('appointments with no show')).toMatchObject({ kind: 'no_match' });
  });
});

describe('"by <people> who are (not) <value>": a clause that describes the rows, not a breakdown', () => {
  it.each([
    ['consultation time of appointments by patients who are not insured', ['consultation_time'], [not('patient_type', 'insured')]],
    ['fees billed by patients that are self-pay', ['fees'], [eq('patient_type', 'self-pay')]],
    ['appointments made by patients who were insured in dermatology', ['appointments'], [eq('department', 'dermatology'), eq('patient_type', 'insured')]],
  ] as const)('"%s"', (question, metrics, filters) => {
    expect(shape(plan(question))).toEqual({ metrics, filters });
  });

  it('keeps "by <dimension>" a breakdown and declines a breakdown no dimension has', () => {
    expect(shape(plan('fees billed by patient type'))).toEqual({ metrics: ['fees'], filters: [], dimensions: ['patient_type'] });
    expect(plan('appointments by patients')).toMatchObject({ kind: 'no_match' });
    expect(plan('appointments by patients who moved')).toMatchObject({ kind: 'no_match' });
  });
});

describe('"per <unit> <words>": the divisor is the metric of that unit the words name', () => {
  it.each([
    ['fuel cost per kilometre driven', 'fuel_cost', 'distance'],
    ['delivery charges per kilogram carried', 'charges', 'weight'],
    ['fuel cost per dollar charged', 'fuel_cost', 'charges'],
    ['fees per dollar reimbursed', 'fees', 'reimbursements'],
  ] as const)('"%s" is %s per %s', (question, metric, by) => {
    expect(shape(plan(question))).toEqual({ metrics: [metric], filters: [], per: { by } });
  });

  it('declines a unit that several metrics measure, one no metric measures, and a metric over itself', () => {
    expect(plan('fuel cost per dollar')).toMatchObject({ kind: 'no_match' });
    expect(plan('fuel cost per minute waited')).toMatchObject({ kind: 'no_match' });
    expect(plan('fees per dollar billed')).toMatchObject({ kind: 'no_match' });
  });
});

describe('a share the model declares as a metric of its own', () => {
  it('answers with that metric when it is the very share asked for, other filters kept', () => {
    expect(shape(plan('What share of appointments were booked online?'))).toEqual({ metrics: ['online_share'], filters: [] });
    expect(shape(plan('What share of appointments in cardiology were booked online?'))).toEqual({ metrics: ['online_share'], filters: [eq('department', 'cardiology')] });
    // Without the words of its name the share is the semantic layer's, which is the same number.
    expect(shape(plan('What percentage of appointments were booked online?'))).toEqual({ metrics: ['appointments'], filters: [], share: { part: { field: 'channel', value: 'online' } } });
  });

  it('declines when the declared metric is a share of something else than what is asked', () => {
    // "Walk-in share" is a share of consultation time, not of appointments.
    expect(plan('What share of appointments were walk-in?')).toMatchObject({ kind: 'no_match' });
  });

  it('leaves a share no metric declares to the semantic layer', () => {
    expect(shape(plan('What share of appointments were booked by phone?'))).toEqual({ metrics: ['appointments'], filters: [], share: { part: { field: 'channel', value: 'phone' } } });
  });
});

describe("a metric's whole name that is also a value of several words", () => {
  it('is the metric when asked for, and the rows of another metric when it describes them', () => {
    expect(shape(plan('failed deliveries'))).toEqual({ metrics: ['failed_deliveries'], filters: [] });
    expect(shape(plan('failed deliveries by depot'))).toEqual({ metrics: ['failed_deliveries'], filters: [], dimensions: ['depot'] });
    expect(shape(plan('fuel cost of failed deliveries'))).toEqual({ metrics: ['fuel_cost'], filters: [eq('outcome', 'failed delivery')] });
  });
});

describe('"<role> in <place>": the noun of a role binds the place after it', () => {
  it.each([
    ['parcels from senders in Spain to recipients in France', [eq('recipient_country', 'France'), eq('sender_country', 'Spain')]],
    ['delivery charges of recipients in Portugal', [eq('recipient_country', 'Portugal')]],
    ['parcels of senders based in France', [eq('sender_country', 'France')]],
  ] as const)('"%s"', (question, filters) => {
    expect(shape(plan(question))).toMatchObject({ filters });
  });

  it('still declines a place no role word binds', () => {
    expect(plan('parcels in Spain')).toMatchObject({ kind: 'no_match' });
  });
});

describe('"within <place>": both ends of the trip', () => {
  it.each([
    ['parcels within Lisbon', [eq('dropoff_city', 'Lisbon'), eq('pickup_city', 'Lisbon')]],
    ['fuel cost of parcels sent within Spain', [eq('recipient_country', 'Spain'), eq('sender_country', 'Spain')]],
  ] as const)('"%s"', (question, filters) => {
    expect(shape(plan(question))).toMatchObject({ filters });
  });

  it('declines a negated "within", which leaves out trips with either end elsewhere or both', () => {
    expect(plan('parcels not within Lisbon')).toMatchObject({ kind: 'no_match' });
  });
});

describe("a ranking word inside a metric's whole name", () => {
  it('names that metric and ranks by it', () => {
    expect(plan('which depot had the largest parcel')).toMatchObject({ kind: 'governed', metrics: ['largest_parcel'], dimensions: ['depot'], sort: { field: 'largest_parcel', direction: 'desc' }, limit: 1 });
    expect(plan('which depot had the most parcels')).toMatchObject({ kind: 'governed', metrics: ['parcels'], dimensions: ['depot'], sort: { field: 'parcels', direction: 'desc' } });
  });
});

describe('verbs the model grounds outside the metric', () => {
  it('accepts the verb of the event that dates every row (the time dimension), beside a role too', () => {
    expect(shape(plan('How many parcels were shipped'))).toEqual({ metrics: ['parcels'], filters: [] });
    expect(shape(plan('How many appointments were scheduled'))).toEqual({ metrics: ['appointments'], filters: [] });
    expect(shape(plan('How many parcels to France were shipped'))).toEqual({ metrics: ['parcels'], filters: [eq('recipient_country', 'France')] });
  });

  it("accepts a verb the description of a filter's dimension uses", () => {
    expect(shape(plan('How many parcels did the North depot handle'))).toEqual({ metrics: ['parcels'], filters: [eq('depot', 'North')] });
  });

  it('accepts a verb of doing that links what a ranking ranks to what it ranks by', () => {
    expect(plan('which depot handled the most parcels')).toMatchObject({ kind: 'governed', metrics: ['parcels'], dimensions: ['depot'], limit: 1 });
    expect(plan('which depot moved the most weight')).toMatchObject({ kind: 'governed', metrics: ['weight'], dimensions: ['depot'], limit: 1 });
  });

  it('declines a verb that restricts the rows', () => {
    expect(plan('How many parcels were lost')).toMatchObject({ kind: 'no_match' });
    expect(plan('How many parcels were returned')).toMatchObject({ kind: 'no_match' });
    expect(plan('which depot lost the most parcels')).toMatchObject({ kind: 'no_match' });
  });

  it("declines a ranking whose verb gives its subject the other end than the subject's field", () => {
    expect(plan('which pickup city handled the most parcels')).toMatchObject({ kind: 'governed', dimensions: ['pickup_city'] });
    expect(plan('which pickup city shipped the most parcels')).toMatchObject({ kind: 'governed', dimensions: ['pickup_city'] });
    expect(plan('which drop-off city shipped the most parcels')).toMatchObject({ kind: 'no_match' });
    expect(plan('which pickup city received the most parcels')).toMatchObject({ kind: 'no_match' });
    expect(plan('which away club hosted the most games')).toMatchObject({ kind: 'no_match' });
  });
});

describe('verbs that say which side a club played ("hosted", "visited", "against")', () => {
  it.each([
    ['games the Hawks hosted against the Owls', [eq('away_club', 'Owls'), eq('home_club', 'Hawks')]],
    ['How many games did the Hawks host the Bears', [eq('away_club', 'Bears'), eq('home_club', 'Hawks')]],
    ['points when the Owls visited the Hawks', [eq('away_club', 'Owls'), eq('home_club', 'Hawks')]],
    ['fouls in games hosted by PAR', [eq('home_club', 'PAR')]],
  ] as const)('"%s"', (question, filters) => {
    expect(shape(plan(question))).toMatchObject({ filters });
  });

  it('still declines clubs no verb places, and a "when" that asks for a time', () => {
    expect(plan('games between Hawks and Owls')).toMatchObject({ kind: 'no_match' });
    expect(plan('games Hawks played against Owls')).toMatchObject({ kind: 'no_match' });
    expect(plan('when did the Hawks host the Owls')).toMatchObject({ kind: 'no_match' });
  });
});

describe('a verb whose subject plays a side ("did the Hawks score at home")', () => {
  it("answers with the side's own metric, or the metric itself when nothing splits it by side", () => {
    expect(shape(plan('how many points did the Hawks score at home'))).toEqual({ metrics: ['home_points'], filters: [eq('home_club', 'Hawks')] });
    expect(shape(plan('How many games did the Owls play away'))).toEqual({ metrics: ['games'], filters: [eq('away_club', 'Owls')] });
    expect(plan('which away club scored the fewest away points')).toMatchObject({ kind: 'governed', metrics: ['away_points'], dimensions: ['away_club'], sort: { direction: 'asc' } });
  });

  it("declines a side's metric the other side is said to have made, and a verb nothing grounds", () => {
    expect(plan('which home club scored the most away points')).toMatchObject({ kind: 'no_match' });
    expect(plan('how many points did the Hawks concede at home')).toMatchObject({ kind: 'no_match' });
  });
});
