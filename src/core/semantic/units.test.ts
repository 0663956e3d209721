// The one list of units: names and aliases in any case, how each reads after a number, and the CML
// warning for a unit not in it.
import { describe, expect, it } from 'vitest';
import { formatValue } from '../answer/prose.js';
import { compileModel } from '../cml/index.js';
import { at, positions, shop } from '../cml/test-helpers.js';
import { findUnit, looksLikeUnit, ratioUnit, unitDisplay, UNITS } from './units.js';

describe('units', () => {
  it('find a unit by name or alias, in any case, with blanks or hyphens', () => {
    expect(findUnit('kilograms')?.name).toBe('kg');
    expect(findUnit('KG')?.name).toBe('kg');
    expect(findUnit('degrees Celsius')?.name).toBe('°C');
    expect(findUnit('°F')?.name).toBe('°F');
    expect(findUnit('kWh')?.name).toBe('kwh');
    expect(findUnit('nautical-miles')?.name).toBe('nmi');
    expect(findUnit('tickets')).toBeUndefined();
  });

  it('give every name one unit only', () => {
    const names = UNITS.flatMap((u) => [u.name, ...u.aliases].map((n) => n.toLowerCase()));
    expect(names.length).toBe(new Set(names).size);
  });

  it.each<[number, string, string]>([
    [21.5, '°C', '21.5 °C'],
    [70, 'fahrenheit', '70 °F'],
    [12.25, 'mm', '12.25 mm'],
    [3.2, 'mi', '3.2 miles'],
    [1, 'mi', '1 mile'],
    [4.5, 't', '4.5 tonnes'],
    [180, 'lb', '180 lb'],
    [250, 'ms', '250 ms'],
    [1, 'seconds', '1 second'],
    [1520.5, 'kwh', '1,520.5 kWh'],
    [1234.5, 'chf', '1,234.50 CHF'],
    [1234.5, 'jpy', '¥1,235'],
    [0.125, '%', '12.5%'],
    [2, 'liters', '2 L'],
    [88.5, 'km/h', '88.5 km/h'],
    [1013.2, 'hPa', '1,013.2 hPa'],
  ])('write %s %s as %s', (value, unit, expected) => {
    expect(formatValue(value, unit)).toBe(expected);
  });

  it('tell a word that looks like a unit from a thing counted', () => {
    for (const unit of ['kgs', 'km/hr', 'milimeters', 'celcius', 'm²', 'kilogram']) expect(looksLikeUnit(unit), unit).toBe(true);
    for (const unit of ['tickets', 'people', 'points', 'seats', 'stars', 'visits', 'kg', 'km/h', '']) expect(looksLikeUnit(unit), unit).toBe(false);
  });

  it('are what answer prose formats with (one list, not two)', () => {
    expect(unitDisplay('minutes')).toEqual({ suffix: ' minutes', singular: ' minute' });
  });
});

describe('units in CML', () => {
  it('a measure may declare a unit, and a metric of that measure takes it unless it has its own', () => {
    const source = shop('measure weight { type: sum  unit: kg  sql: ${amount} }', 'reveal r { domain: d  base: orders\n  metric w { measure: weight }\n  metric w2 { measure: weight  unit: t } }');
    const result = compileModel([{ path: 'model.cml', content: source }]);
    expect(result.diagnostics).toEqual([]);
    expect(result.model!.nodes.get('orders')!.measures.get('weight')!.unit).toBe('kg');
    expect(result.model!.reveals.get('r')!.metrics.get('w')!.unit).toBe('kg');
    expect(result.model!.reveals.get('r')!.metrics.get('w2')!.unit).toBe('t');
  });

  it('take a plain word as the thing counted, without a warning', () => {
    const source = shop('', 'reveal r { domain: d  base: orders\n  metric m { measure: order_count  unit: tickets } }');
    expect(compileModel([{ path: 'model.cml', content: source }]).diagnostics).toEqual([]);
  });

  it('warn about a unit not in the list that looks like one, with the list, and keep the model', () => {
    const source = shop('measure weight { type: sum  unit: kgs  sql: ${amount} }', 'reveal r { domain: d  base: orders\n  metric m { measure: order_count  unit: "milimeters" } }');
    const result = compileModel([{ path: 'model.cml', content: source }]);
    expect(positions(result.diagnostics)).toEqual([
      { code: 'CML601', ...at(source, 'kgs') },
      { code: 'CML601', ...at(source, '"milimeters"') },
    ]);
    expect(result.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
    expect(result.diagnostics[0]!.message).toMatch(/did you mean `kg`.*known units: .*°C/);
    expect(result.model).toBeDefined();
  });
});

describe('a unit over another', () => {
  it.each<[number, string, string]>([
    [3.2, 'usd per item', '$3.20 per item'],
    [3.2, 'usd per items', '$3.20 per item'],
    [2, 'eur per boxes', '€2.00 per box'],
    [12, 'per km', '12 per km'],
    [5.5, 'minutes per km', '5.5 minutes per km'],
    [1, 'minutes per km', '1 minute per km'],
    [40, 'kwh per hours', '40 kWh per hour'],
    [0.25, 'percent per day', '25% per day'],
    [7, 'tickets per agent', '7 tickets per agent'],
    [1.5, 'per entries', '1.5 per entry'],
  ])('write %s %s as %s', (value, unit, expected) => {
    expect(formatValue(value, unit)).toBe(expected);
  });

  it('is the unit of a ratio: the numerator over the denominator, a count dropping out and equal units cancelling', () => {
    expect(ratioUnit('dollars', 'items')).toBe('usd per item');
    expect(ratioUnit('usd', 'count')).toBe('usd');
    expect(ratioUnit('usd', undefined)).toBe('usd');
    expect(ratioUnit(undefined, 'kilometers')).toBe('per km');
    expect(ratioUnit('', 'hours')).toBe('per hours');
    expect(ratioUnit('usd', 'dollars')).toBeUndefined();
    expect(ratioUnit('number', 'integer')).toBeUndefined();
    expect(ratioUnit(undefined, undefined)).toBeUndefined();
  });

  it('is not warned about when both units are sound, and is when one looks misspelt', () => {
    for (const unit of ['usd per item', 'per km', 'minutes per hour', 'tickets per agent']) expect(looksLikeUnit(unit), unit).toBe(false);
    for (const unit of ['kgs per item', 'usd per kmh2']) expect(looksLikeUnit(unit), unit).toBe(true);
  });
});
