// Top-N and bottom-N phrasings, by class, in five languages, on invented models. A superlative
// ("most", "fewest", "meisten") is grammar, never a metric word; its subject must resolve to a
// dimension or the question is declined.
import { describe, expect, it } from 'vitest';
import { ask, governed } from './models.js';

const desc = (field: string, limit: number) => ({ sort: { field, direction: 'desc' as const }, limit });
const asc = (field: string, limit: number) => ({ sort: { field, direction: 'asc' as const }, limit });

describe('top-N phrasings', () => {
  it('"which N X had the most Y" ranks X by Y, N rows', () => {
    expect(ask('library', 'which 3 branches had the most loans')).toMatchObject(governed('lending', ['loans'], { dimensions: ['branch'], ...desc('loans', 3) }));
    expect(ask('clinic', 'which 2 departments had the most visits')).toMatchObject(governed('care', ['visits'], { dimensions: ['department'], ...desc('visits', 2) }));
    expect(ask('energy', 'what 5 sites had the highest consumption')).toMatchObject(governed('energy', ['consumption'], { dimensions: ['meters.site'], ...desc('consumption', 5) }));
  });

  it('"which X had the most Y" with a singular X asks for one row', () => {
    expect(ask('library', 'which branch had the most loans')).toMatchObject(governed('lending', ['loans'], { dimensions: ['branch'], ...desc('loans', 1) }));
    expect(ask('bakery', 'which city has the highest takings')).toMatchObject(governed('bakery', ['takings'], { dimensions: ['shops.city'], ...desc('takings', 1) }));
    expect(ask('clinic', 'what clinic had the fewest visits')).toMatchObject(governed('care', ['visits'], { dimensions: ['clinic'], ...asc('visits', 1) }));
  });

  it('"the N X with the highest / lowest / fewest Y"', () => {
    expect(ask('bakery', 'the 5 products with the highest takings')).toMatchObject(governed('bakery', ['takings'], { dimensions: ['product'], ...desc('takings', 5) }));
    expect(ask('energy', 'the 3 sites with the lowest peak demand')).toMatchObject(governed('energy', ['peak_demand'], { dimensions: ['meters.site'], ...asc('peak_demand', 3) }));
    expect(ask('library', 'the 3 genres with the fewest loans')).toMatchObject(governed('lending', ['loans'], { dimensions: ['genre'], ...asc('loans', 3) }));
    expect(ask('clinic', 'show the 4 clinics with the least visits')).toMatchObject(governed('care', ['visits'], { dimensions: ['clinic'], ...asc('visits', 4) }));
    expect(ask('energy', 'the 2 tariffs with the smallest consumption')).toMatchObject(governed('energy', ['consumption'], { dimensions: ['meters.tariff'], ...asc('consumption', 2) }));
  });

  it('"top X by Y" without a number: one row for a singular X, ten for a plural X', () => {
    expect(ask('bakery', 'top product by units sold')).toMatchObject(governed('bakery', ['units_sold'], { dimensions: ['product'], ...desc('units_sold', 1) }));
    expect(ask('library', 'top branches by loans')).toMatchObject(governed('lending', ['loans'], { dimensions: ['branch'], ...desc('loans', 10) }));
    expect(ask('energy', 'bottom sites by consumption')).toMatchObject(governed('energy', ['consumption'], { dimensions: ['meters.site'], ...asc('consumption', 10) }));
    expect(ask('clinic', 'bottom 3 departments by average wait')).toMatchObject(governed('care', ['average_wait'], { dimensions: ['department'], ...asc('average_wait', 3) }));
  });

  it('"X with the most Y" and "which X ... the most" after a verb', () => {
    expect(ask('library', 'branches with the most late fees')).toMatchObject(governed('lending', ['late_fees'], { dimensions: ['branch'], ...desc('late_fees', 10) }));
    expect(ask('clinic', 'which insurer had the least refunds')).toMatchObject(governed('billing', ['refunds'], { dimensions: ['patients.insurer'], ...asc('refunds', 1) }));
  });

  it('"which X sold the most Y": a verb of the metric is part of it', () => {
    expect(ask('bakery', 'which city sold the most baguettes')).toMatchObject(
      governed('bakery', ['units_sold'], { dimensions: ['shops.city'], filters: [{ field: 'product', value: 'baguette' }], ...desc('units_sold', 1) }),
    );
  });

  it('keeps a value filter beside the ranking', () => {
    expect(ask('library', 'which 3 branches had the most fiction loans')).toMatchObject(
      governed('lending', ['loans'], { dimensions: ['branch'], filters: [{ field: 'genre', value: 'fiction' }], ...desc('loans', 3) }),
    );
  });

  it('reads the same classes in Spanish, French, German and Portuguese', () => {
    expect(ask('library', 'los 3 branch con más préstamos')).toMatchObject(governed('lending', ['loans'], { dimensions: ['branch'], ...desc('loans', 3) }));
    expect(ask('clinic', '¿qué clinic tuvo más consultas?')).toMatchObject(governed('care', ['visits'], { dimensions: ['clinic'], ...desc('visits', 1) }));
    expect(ask('clinic', 'qué clinic tuvo menos consultas')).toMatchObject(governed('care', ['visits'], { dimensions: ['clinic'], ...asc('visits', 1) }));
    expect(ask('library', 'les 3 genres avec le plus de prêts')).toMatchObject(governed('lending', ['loans'], { dimensions: ['genre'], ...desc('loans', 3) }));
    expect(ask('energy', 'quel site a le moins de relevés')).toMatchObject(governed('energy', ['readings'], { dimensions: ['meters.site'], ...asc('readings', 1) }));
    expect(ask('bakery', 'welche 3 Produkte hatten den meisten Umsatz')).toMatchObject(governed('bakery', ['takings'], { dimensions: ['product'], ...desc('takings', 3) }));
    expect(ask('library', 'welche branch hatte die wenigsten Ausleihen')).toMatchObject(governed('lending', ['loans'], { dimensions: ['branch'], ...asc('loans', 1) }));
    expect(ask('bakery', 'os 3 produtos com mais faturamento')).toMatchObject(governed('bakery', ['takings'], { dimensions: ['product'], ...desc('takings', 3) }));
    expect(ask('library', 'welche Filiale hat am meisten Ausleihen')).toMatchObject(governed('lending', ['loans'], { dimensions: ['branch'], ...desc('loans', 1) }));
    expect(ask('library', 'qué sucursal tuvo la mayor cantidad de préstamos')).toMatchObject(governed('lending', ['loans'], { dimensions: ['branch'], ...desc('loans', 1) }));
    expect(ask('library', 'qual filial teve o maior número de empréstimos')).toMatchObject(governed('lending', ['loans'], { dimensions: ['branch'], ...desc('loans', 1) }));
    expect(ask('energy', 'qual site teve menos leituras')).toMatchObject(governed('energy', ['readings'], { dimensions: ['meters.site'], ...asc('readings', 1) }));
  });

  it('declines a ranking within each group rather than rank the pairs', () => {
    for (const question of ['which branch had the most loans by month', 'top 3 branches by loans per genre', 'the 2 clinics with the fewest visits by department']) {
      const plan = ask(question.includes('loans') ? 'library' : 'clinic', question);
      expect(plan.kind, question).toBe('no_match');
      if (plan.kind === 'no_match') expect(plan.reason, question).toMatch(/ranking within each/);
    }
    // A plain breakdown can still name what is ranked.
    expect(ask('library', 'loans by branch, top 3')).toMatchObject(governed('lending', ['loans'], { dimensions: ['branch'], ...desc('loans', 3) }));
  });

  it('never reads "most", "more" or "highest" as a metric word', () => {
    for (const question of ['most loans', 'highest loans', 'more loans', 'loans most']) {
      const plan = ask('library', question);
      expect(plan.kind, question).toBe('no_match');
    }
  });

  it('declines when the ranked subject is not a dimension, or when "more" compares with a number', () => {
    expect(ask('library', 'which 3 librarians had the most loans').kind).toBe('no_match');
    expect(ask('library', 'which branch had more than 3 loans').kind).toBe('no_match');
    expect(ask('clinic', 'which clinic had the most').kind).toBe('no_match');
    expect(ask('bakery', 'which products are most popular').kind).toBe('no_match');
  });
});
