// The units a metric or measure may declare (`unit: mm`), and how each is written after a number in
// prose. One list for the whole product: the CML linker warns about a unit not in it, and the answer
// prose formats numbers by it. A unit word not listed (`tickets`) is still written after the number
// as it is: a plain word is read as what is counted (`tickets`, `people`). Only a word that looks
// like a unit without being one (`kgs`, `km/hr`, `milimeters`) is warned about, so a misspelt unit
// is noticed before a reader sees it.
// The console bundles it too (Explore writes a measure by its unit), so it stays free of imports.

/** How a unit is shown next to a number. */
export interface UnitDisplay {
  /** Written before the number, after any minus sign: `$`. */
  readonly prefix?: string;
  /** Written after the number: ` km`, `%`, ` minutes`. */
  readonly suffix?: string;
  /** The suffix when the value is exactly 1 (` minute`). */
  readonly singular?: string;
  /** Exactly this many fraction digits (cents). Without it: as many as the value has, at most 2. */
  readonly decimals?: number;
  /** The warehouse returns a share (0.042) that reads as a percentage (4.2%). */
  readonly ratio?: boolean;
}

export type UnitKind =
  | 'plain'
  | 'currency'
  | 'ratio'
  | 'time'
  | 'temperature'
  | 'length'
  | 'area'
  | 'mass'
  | 'volume'
  | 'speed'
  | 'pressure'
  | 'energy'
  | 'power'
  | 'data';

export interface Unit {
  /** The canonical name, as CML writes it (`kg`). */
  readonly name: string;
  /** Other names CML accepts for it (`kilograms`). */
  readonly aliases: readonly string[];
  readonly kind: UnitKind;
  readonly display: UnitDisplay;
}

const PLAIN: UnitDisplay = {};
const money = (prefix: string, decimals = 2): UnitDisplay => ({ prefix, decimals });
/** A currency without a well-known symbol: `1,234.00 CHF`. */
const code = (text: string): UnitDisplay => ({ suffix: ` ${text}`, decimals: 2 });
const word = (plural: string, singular: string): UnitDisplay => ({ suffix: ` ${plural}`, singular: ` ${singular}` });
const symbol = (text: string): UnitDisplay => ({ suffix: ` ${text}` });

const unit = (kind: UnitKind, name: string, display: UnitDisplay, ...aliases: string[]): Unit => ({ name, aliases, kind, display });

export const UNITS: readonly Unit[] = [
  unit('plain', 'count', PLAIN, '', 'number', 'integer'),
  // Currencies, by ISO code and by the words models write.
  unit('currency', 'usd', money('$'), 'dollars', 'us_dollars'),
  unit('currency', 'eur', money('€'), 'euros', 'euro'),
  unit('currency', 'gbp', money('£'), 'pounds_sterling'),
  unit('currency', 'jpy', money('¥', 0), 'yen'),
  unit('currency', 'cny', money('CN¥'), 'yuan', 'rmb'),
  unit('currency', 'inr', money('₹'), 'rupees'),
  unit('currency', 'brl', money('R$'), 'reais'),
  unit('currency', 'cad', money('CA$')),
  unit('currency', 'aud', money('A$')),
  unit('currency', 'mxn', money('MX$')),
  unit('currency', 'chf', code('CHF')),
  unit('currency', 'sek', code('SEK')),
  unit('currency', 'nok', code('NOK')),
  unit('currency', 'dkk', code('DKK')),
  unit('currency', 'pln', code('PLN'), 'zloty'),
  unit('currency', 'czk', code('CZK')),
  unit('currency', 'zar', code('ZAR'), 'rand'),
  unit('currency', 'krw', money('₩', 0), 'won'),
  // Shares and points.
  unit('ratio', 'percent', { suffix: '%', ratio: true }, 'percentage', '%'),
  unit('plain', 'percentage_points', { suffix: '%' }, 'pp'),
  unit('plain', 'basis_points', symbol('bp'), 'bps'),
  // Time.
  unit('time', 'ms', symbol('ms'), 'milliseconds'),
  unit('time', 'seconds', word('seconds', 'second'), 's', 'sec', 'secs'),
  unit('time', 'minutes', word('minutes', 'minute'), 'min', 'mins'),
  unit('time', 'hours', word('hours', 'hour'), 'h', 'hr', 'hrs'),
  unit('time', 'days', word('days', 'day'), 'd'),
  unit('time', 'weeks', word('weeks', 'week')),
  unit('time', 'months', word('months', 'month')),
  unit('time', 'years', word('years', 'year')),
  // Temperature.
  unit('temperature', '°C', symbol('°C'), 'celsius', 'degrees_celsius', 'degc'),
  unit('temperature', '°F', symbol('°F'), 'fahrenheit', 'degrees_fahrenheit', 'degf'),
  unit('temperature', 'K', symbol('K'), 'kelvin'),
  // Length and distance.
  unit('length', 'mm', symbol('mm'), 'millimeters', 'millimetres'),
  unit('length', 'cm', symbol('cm'), 'centimeters', 'centimetres'),
  unit('length', 'm', symbol('m'), 'meters', 'metres'),
  unit('length', 'km', symbol('km'), 'kilometers', 'kilometres'),
  unit('length', 'in', symbol('in'), 'inches'),
  unit('length', 'ft', symbol('ft'), 'feet'),
  unit('length', 'mi', word('miles', 'mile'), 'miles'),
  unit('length', 'nmi', symbol('nmi'), 'nautical_miles'),
  // Area.
  unit('area', 'm2', symbol('m²'), 'square_meters', 'square_metres', 'sqm'),
  unit('area', 'km2', symbol('km²'), 'square_kilometers', 'square_kilometres'),
  unit('area', 'ha', symbol('ha'), 'hectares'),
  unit('area', 'sqft', symbol('sq ft'), 'square_feet'),
  unit('area', 'acres', word('acres', 'acre')),
  // Mass.
  unit('mass', 'g', symbol('g'), 'grams'),
  unit('mass', 'kg', symbol('kg'), 'kilograms'),
  unit('mass', 't', word('tonnes', 'tonne'), 'tonnes', 'metric_tons'),
  unit('mass', 'lb', symbol('lb'), 'lbs'), // not "pounds": it may mean sterling
  unit('mass', 'oz', symbol('oz'), 'ounces'),
  // Volume.
  unit('volume', 'ml', symbol('mL'), 'milliliters', 'millilitres'),
  unit('volume', 'l', symbol('L'), 'liters', 'litres'),
  unit('volume', 'm3', symbol('m³'), 'cubic_meters', 'cubic_metres'),
  unit('volume', 'gal', symbol('gal'), 'gallons'),
  // Speed and pressure.
  unit('speed', 'km/h', symbol('km/h'), 'kmh', 'kph', 'kilometers_per_hour', 'kilometres_per_hour'),
  unit('speed', 'mph', symbol('mph'), 'miles_per_hour'),
  unit('speed', 'm/s', symbol('m/s'), 'meters_per_second', 'metres_per_second'),
  unit('speed', 'knots', word('knots', 'knot'), 'kn', 'kt'),
  unit('pressure', 'hpa', symbol('hPa'), 'hectopascals', 'mbar', 'millibars'),
  unit('pressure', 'kpa', symbol('kPa'), 'kilopascals'),
  unit('pressure', 'bar', symbol('bar')),
  unit('pressure', 'psi', symbol('psi')),
  // Energy and power.
  unit('energy', 'wh', symbol('Wh')),
  unit('energy', 'kwh', symbol('kWh')),
  unit('energy', 'mwh', symbol('MWh')),
  unit('energy', 'kj', symbol('kJ')),
  unit('power', 'w', symbol('W'), 'watts'),
  unit('power', 'kw', symbol('kW'), 'kilowatts'),
  unit('power', 'mw', symbol('MW'), 'megawatts'),
  // Data.
  unit('data', 'mb', symbol('MB'), 'megabytes'),
  unit('data', 'gb', symbol('GB'), 'gigabytes'),
  unit('data', 'tb', symbol('TB'), 'terabytes'),
];

/** How a unit word is looked up: trimmed, lower case, blanks and hyphens as `_`. */
export function unitKey(text: string): string {
  return text.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

const BY_NAME: ReadonlyMap<string, Unit> = new Map(UNITS.flatMap((u) => [u.name, ...u.aliases].map((name) => [unitKey(name), u] as const)));

/** The unit a word names (`kilograms` → kg), in any case; undefined for a word that is no known unit. */
export function findUnit(text: string): Unit | undefined {
  return BY_NAME.get(unitKey(text));
}

/**
 * How a unit word is shown next to a number: a known unit's display, or for a unit over another
 * (`usd per item`, `per km`, as ratio measures take) the first unit's followed by "per" and the second
 * in the singular (`$3.20 per item`). Undefined for a word that is neither.
 */
export function unitDisplay(text: string): UnitDisplay | undefined {
  const known = findUnit(text);
  if (known) return known.display;
  const per = splitPer(text);
  if (!per) return undefined;
  const over = perUnit(per.denominator);
  const each = over ? (over.display.singular ?? over.display.suffix ?? ` ${over.name}`).trim() : singularOf(per.denominator.replaceAll('_', ' '));
  const top: UnitDisplay = per.numerator === undefined ? {} : (findUnit(per.numerator)?.display ?? { suffix: ` ${per.numerator.replaceAll('_', ' ')}` });
  return {
    ...top,
    suffix: `${top.suffix ?? ''} per ${each}`,
    ...(top.singular !== undefined ? { singular: `${top.singular} per ${each}` } : {}),
  };
}

/** `usd per item` → usd over item; `per km` → nothing over km. Undefined for a unit without "per". */
function splitPer(text: string): { numerator: string | undefined; denominator: string } | undefined {
  const match = /^(?:(.+?)_)?per_(.+)$/.exec(unitKey(text));
  return match ? { numerator: match[1], denominator: match[2]! } : undefined;
}

/** The unit after "per", by a name or in the singular: `per km`, `per hour`, `per mile`. */
function perUnit(word: string): Unit | undefined {
  return findUnit(word) ?? UNITS.find((u) => u.display.singular?.trim() === word);
}

/** A counted thing in the singular, as it reads after "per": items → item, boxes → box, entries → entry. */
function singularOf(word: string): string {
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:s|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The unit of a ratio of two measures: the numerator's over the denominator's (`usd per item` for usd
 * over items). A count (or no unit) drops out: revenue (usd) over orders (a count) is in usd, a count
 * over kilometres is `per km`; two equal units cancel (a share of revenue is a plain number).
 * Undefined when nothing remains.
 */
export function ratioUnit(numerator: string | undefined, denominator: string | undefined): string | undefined {
  const top = significant(numerator);
  const bottom = significant(denominator);
  if (bottom === undefined) return top;
  if (top !== undefined && unitKey(top) === unitKey(bottom)) return undefined;
  // After "per", a thing counted reads in the singular: usd per item.
  const each = findUnit(bottom) ? bottom : singularOf(bottom);
  return top === undefined ? `per ${each}` : `${top} per ${each}`;
}

/** A unit as a ratio's unit names it (a known unit by its canonical name); undefined for a count or none. */
function significant(unit: string | undefined): string | undefined {
  if (unit === undefined || unit.trim() === '') return undefined;
  const known = findUnit(unit);
  if (known) return known.name === 'count' ? undefined : known.name;
  return unit.trim();
}

/** The canonical names of every known unit, for messages. */
export function unitNames(): string[] {
  return UNITS.map((u) => u.name).filter((name) => name !== '');
}

/**
 * True when an unknown unit word looks like a unit rather than a thing counted: it has a symbol or
 * digit (`km/hr`, `m²`), is three letters or fewer (`kgs`), or is one edit from a unit's name of five
 * letters or more (`milimeters`, `celcius`). A plain longer word (`tickets`, `points`) is what is counted.
 */
export function looksLikeUnit(text: string): boolean {
  const key = unitKey(text);
  if (findUnit(key)) return false;
  const per = splitPer(key);
  if (per) return (per.numerator !== undefined && looksLikeUnit(per.numerator)) || (!perUnit(per.denominator) && looksLikeUnit(per.denominator));
  if (/[^a-z_]/.test(key) || key.replaceAll('_', '').length <= 3) return true;
  return [...BY_NAME.keys()].some((name) => name.length >= 5 && withinOneEdit(key, name));
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
