// The comparison reading on wordings and domains of its own: which two periods, which is current, the
// text the planner is handed, and every shape that must stay no comparison (so the ordinary path
// declines the comparison words instead of answering for one period).
import { describe, expect, it } from 'vitest';
import { readComparison } from './compared-periods.js';
import { contentStems } from './text.js';

// A Wednesday in June, mid-afternoon in UTC: late evening in Tokyo, morning in Los Angeles.
const NOW = new Date('2025-06-18T15:00:00Z');
const read = (question: string, timezone = 'UTC') => readComparison(question, { now: NOW, timezone });
const bounds = (question: string, timezone = 'UTC') => {
  const reading = read(question, timezone);
  return reading && { current: [reading.current.start, reading.current.end], comparison: [reading.comparison.start, reading.comparison.end], text: reading.text };
};

describe('two periods named', () => {
  it('"more … than": the period named first is current', () => {
    expect(bounds('How many more orders did we ship in 2022 than in 2021?')).toEqual({
      current: ['2022-01-01', '2023-01-01'],
      comparison: ['2021-01-01', '2022-01-01'],
      text: 'How many orders did we ship ?',
    });
    expect(bounds('were there fewer outages in Q3 2024 than in Q2 2024')?.comparison).toEqual(['2024-04-01', '2024-07-01']);
  });

  it('"from … to" and "between … and": the later end is current', () => {
    expect(bounds('difference in claims paid between March and April 2025')).toMatchObject({ current: ['2025-04-01', '2025-05-01'], comparison: ['2025-03-01', '2025-04-01'], text: 'claims paid' });
    expect(bounds('how did ticket sales change from 2019 to 2022?')).toMatchObject({ current: ['2022-01-01', '2023-01-01'], comparison: ['2019-01-01', '2020-01-01'] });
    expect(bounds('premiums rose from H1 2024 to H2 2024')).toMatchObject({ current: ['2024-07-01', '2025-01-01'], comparison: ['2024-01-01', '2024-07-01'] });
  });

  it('"compared with", "versus", "vs." set the second beside the first', () => {
    expect(bounds('admissions in January 2025 compared with December 2024')).toMatchObject({ current: ['2025-01-01', '2025-02-01'], comparison: ['2024-12-01', '2025-01-01'] });
    expect(bounds('kWh used 2023 vs. 2022')).toMatchObject({ current: ['2023-01-01', '2024-01-01'], comparison: ['2022-01-01', '2023-01-01'], text: 'kWh used' });
  });

  it('this year so far against the same days of last year, not all of it', () => {
    const reading = read('parcels delivered this year versus last year');
    expect([reading?.current.start, reading?.current.end]).toEqual(['2025-01-01', '2025-06-19']);
    expect([reading?.comparison.start, reading?.comparison.end]).toEqual(['2024-01-01', '2024-06-19']);
    expect(reading?.comparison.token).toBe('same_days_of_last_year');
    expect(bounds('this month compared to last month, how many refunds')).toMatchObject({ current: ['2025-06-01', '2025-06-19'], comparison: ['2025-05-01', '2025-05-19'] });
  });

  it('resolves "this year" in the workspace time zone', () => {
    // 15:00 UTC is already 2025-06-19 in Tokyo.
    expect(bounds('loans this year vs last year', 'Asia/Tokyo')).toMatchObject({ current: ['2025-01-01', '2025-06-20'], comparison: ['2024-01-01', '2024-06-20'] });
  });
});

describe('one period and the one it is set beside', () => {
  it('growth or change alone: the period of the same length just before', () => {
    expect(bounds('growth in subscribers last quarter')).toMatchObject({ current: ['2025-01-01', '2025-04-01'], comparison: ['2024-10-01', '2025-01-01'], text: 'subscribers' });
    expect(read('how did churn change in February 2025')?.comparison).toMatchObject({ token: '2025_01', start: '2025-01-01', end: '2025-02-01' });
    expect(read('increase in claims in 2024')?.comparison.token).toBe('2023');
  });

  it('"the month before", "the previous quarter"', () => {
    expect(read('energy sold in April 2025 against the month before')?.comparison).toMatchObject({ token: '2025_03' });
    expect(read('visits last month compared with the previous month')?.comparison).toMatchObject({ token: '2025_04', start: '2025-04-01' });
  });

  it('"the same quarter last year", "year over year": a year before', () => {
    expect(read('returns in Q4 2024 compared to the same quarter a year earlier')?.comparison).toMatchObject({ token: '2023_q4' });
    expect(bounds('year-over-year change in premiums written in 2023')).toMatchObject({ current: ['2023-01-01', '2024-01-01'], comparison: ['2022-01-01', '2023-01-01'], text: 'premiums written' });
    expect(read('YoY growth of signups this month')?.comparison).toMatchObject({ start: '2024-06-01', end: '2024-06-19' });
  });
});

describe('no comparison: the question goes the ordinary way', () => {
  it.each([
    'customers with more than 3 orders in 2024',
    'How many more orders than last year?',
    'How much more did Ohio buy than Texas in 2024?',
    'revenue in 2024 against the target',
    'orders in 2022, 2023 and 2024 compared',
    'revenue in 2024 versus Q1 2024',
    'orders in 2024',
    'orders from 2023 to 2024',
    'the change in price before 2020',
    'growth of orders',
  ])('%s', (question) => {
    expect(read(question)).toBeUndefined();
  });
});

describe('the catalog\'s own words', () => {
  it('a cue word that names a metric or a dimension is no comparison', () => {
    const vocabulary = new Set(contentStems('salary increase drop off station'));
    const withCatalog = (question: string) => readComparison(question, { now: NOW, timezone: 'UTC', isCatalogWord: (stem) => vocabulary.has(stem) });
    expect(withCatalog('salary increase per employee in 2024')).toBeUndefined();
    expect(withCatalog('trips by drop off station in 2024')).toBeUndefined();
    expect(withCatalog('growth of trips in 2024')?.comparison.token).toBe('2023');
  });
});

describe('periods of days', () => {
  it('the last 30 days against the 30 days before, and a year before', () => {
    expect(read('tickets in the last 30 days compared with the previous period')?.comparison).toEqual({ token: 'the_30_days_before', start: '2025-04-19', end: '2025-05-19', phrase: '' });
    expect(read('year over year change in tickets in the last 30 days')?.comparison).toMatchObject({ start: '2024-05-19', end: '2024-06-18' });
  });
});

describe('change words that are the event asked about', () => {
  it.each([
    'What share of employees changed teams in 2024?',
    'how many prices dropped by more than 10% in Q1 2025',
    'customers who increased their plan last month',
    'orders with more than 3 items in 2024 than usual',
  ])('%s is no comparison', (question) => {
    expect(read(question)).toBeUndefined();
  });

  it('while the same words about the metric are', () => {
    expect(read('did revenue increase in 2024')?.comparison.token).toBe('2023');
    expect(read('revenue grew last quarter')?.comparison.token).toBe('2024_q4');
    expect(read('headcount decline in Q1 2025')?.comparison.token).toBe('2024_q4');
  });
});

describe('a change the rows record', () => {
  it.each([
    'What share of employees got an increase in 2024?',
    'how many staff had a change of role in Q1 2025',
    'orders whose price increased in 2024',
    'customers that dropped in March 2025',
  ])('%s is no comparison', (question) => {
    expect(read(question)).toBeUndefined();
  });

  it('while the metric\'s own change is', () => {
    expect(read('what was the increase in revenue in 2024')?.comparison.token).toBe('2023');
    expect(read('How did the number of customers change in March 2025, and why')?.comparison.token).toBe('2025_02');
  });
});

describe('the text left to plan', () => {
  it('keeps "more than" that is not the comparison', () => {
    expect(read('growth of customers with more than 3 orders last month')?.text).toBe('customers with more than 3 orders');
  });
});

describe('a comparative beside another comparison word', () => {
  it('asks for the change: "how many more … compared to"', () => {
    expect(read('how many more trips in 2024 compared to 2023')?.text).toBe('how many trips');
    expect(read('how many trips more in 2024 compared to 2023, of more than 3 km')?.text).toBe('how many trips , of more than 3 km');
  });
});
