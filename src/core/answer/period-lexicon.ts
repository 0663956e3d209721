// The words of the period grammar in English, Spanish, French, German, Portuguese and Italian. Everything here is
// lower-case and accent-free because the question is folded the same way before matching ("último" is
// matched as "ultimo", "März" as "marz", "año" as "ano"). Entries are regular-expression fragments so that
// each alternation reads as the list of words it accepts. Languages are mixed in one alternation on
// purpose: a question never says which language it is in, and "this semana" matching is harmless.
import type { PeriodUnit } from '../semantic/time.js';

export type CalendarUnit = Exclude<PeriodUnit, 'day'>;
export const CALENDAR_UNITS: readonly CalendarUnit[] = ['week', 'month', 'quarter', 'year'];

/**
 * Prepositions and articles that belong to the period when they come right before it ("ventas del mes
 * pasado", "im letzten Monat", "for the last 7 days"), so that the caller removes them with the period.
 */
const PREPOSITIONS =
  'in|during|for|over|of|en|durante|de|del|para|pendant|durant|sur|pour|du|des|au|aux|im|fur|wahrend|em|no|na|nos|nas|do|da|dos|das|' +
  // Italian: "nel 2024", "nell'anno 2024", "del mese scorso", "della settimana scorsa", "negli ultimi 7 giorni".
  'nel|nella|nei|negli|nello|della|dei|degli|delle|dello|di|al|alla|ai|agli'
;
const ARTICLES = 'the|el|la|los|las|le|les|der|die|das|den|dem|o|a|os|as|il|lo|i|gli';
export const LEADING_WORDS = `(?:(?:${PREPOSITIONS})\\s+|nell'|dell'|all')?(?:(?:${ARTICLES})\\s+|l')?`;

export const TODAY = "today|hoy|aujourd'hui|heute|hoje|oggi";
// "hier" is also German for "here"; French needs it, so a German "hier" is read as yesterday.
export const YESTERDAY = 'yesterday|ayer|hier|gestern|ontem|ieri';

/** Nouns naming a calendar unit after "this", "last", or before "to date". */
export const UNIT_NOUNS: Readonly<Record<CalendarUnit, string>> = {
  week: 'week|semana|semaine|woche|settimana',
  month: 'month|mes|mois|monats?|mese',
  quarter: 'quarter|trimestre|quartals?',
  // French "an" only in fixed phrases (see LAST_YEAR_EXTRA): alone it is also the English article.
  year: 'year|ano|annee|jahr(?:es|s)?|anno',
};

const GERMAN_ENDING = '(?:e|en|er|es|em)?';
/** Words for "this" before the noun (this week, esta semana, desta semana, cette semaine, diese Woche). */
export const THIS_BEFORE = `this|current|d?est[ea]|cette|cet|ce|quest[oa]|(?:dies|laufend|aktuell)${GERMAN_ENDING}`;
/** Words for "this" after the noun (mes actual, mês atual, semaine en cours). */
export const THIS_AFTER = 'actual|atual|corrente|en\\s+curso|em\\s+curso|en\\s+cours|in\\s+corso';
/** Words for "last" before the noun (last week, último mes, letzte Woche). */
export const LAST_BEFORE = `last|previous|past|prior|ultim[oa]|scors[oa]|(?:letzt|vergangen|vorig)${GERMAN_ENDING}`;
/** Words for "last" after the noun (semana pasada, mês passado, mois dernier, semaine précédente). */
export const LAST_AFTER = 'pasad[oa]|passad[oa]|anterior|derniere?|passee?|precedente?|scors[oa]|passat[oa]';
/** One-word German forms and French "l'an dernier". */
export const LAST_EXTRA: Readonly<Record<CalendarUnit, string>> = {
  week: 'vorwoche',
  month: 'vormonat',
  quarter: 'vorquartal',
  year: "vorjahr(?:es)?|l'an\\s+(?:dernier|passe|precedent)",
};

/** "this week", "esta semana", "ce mois-ci", "this month's", "mes actual", "dieses Jahr(es)". */
export function thisUnitForms(unit: CalendarUnit): string {
  const noun = `(?:${UNIT_NOUNS[unit]})`;
  // Italian elides "questo" before a vowel: "quest'anno".
  return `(?:${THIS_BEFORE})\\s+${noun}(?:-ci|'s)?|quest'\\s*${noun}|${noun}\\s+(?:${THIS_AFTER})`;
}

/** "last week", "la semana pasada", "le mois dernier", "letzten Monat", "Vorjahr", "l'an dernier". */
export function lastUnitForms(unit: CalendarUnit): string {
  const noun = `(?:${UNIT_NOUNS[unit]})`;
  return `(?:${LAST_BEFORE})\\s+${noun}(?:'s)?|${noun}\\s+(?:${LAST_AFTER})|${LAST_EXTRA[unit]}`;
}

const TO_DATE_SHORT: Readonly<Record<CalendarUnit, string>> = { week: 'wtd', month: 'mtd', quarter: 'qtd', year: 'ytd' };
const GERMAN_START: Readonly<Record<CalendarUnit, string>> = {
  week: 'wochen(?:beginn|anfang)',
  month: 'monats(?:beginn|anfang)',
  quarter: 'quartals(?:beginn|anfang)',
  year: 'jahres(?:beginn|anfang)',
};

/** "year to date", "YTD", "año hasta la fecha", "depuis le début de l'année", "seit Jahresbeginn"… */
export function toDateForms(unit: CalendarUnit): string {
  const noun = `(?:${UNIT_NOUNS[unit]})`;
  return [
    TO_DATE_SHORT[unit],
    // "this year to date" is one period, not "this year" followed by stray words.
    `(?:this\\s+)?${noun}[\\s-]+to[\\s-]+date`,
    `${noun}\\s+(?:hasta|ate)\\s+(?:la\\s+fecha|a\\s+data|hoy|hoje|o\\s+momento)`,
    `en\\s+lo\\s+que\\s+va\\s+(?:del|de\\s+la|de\\s+este|de\\s+esta)\\s+${noun}`,
    `acumulado\\s+(?:do|da|deste|desta)\\s+${noun}`,
    `depuis\\s+(?:le\\s+)?debut\\s+(?:de\\s+l'|de\\s+la\\s+|du\\s+|de\\s+(?:cette\\s+|ce\\s+)?)${noun}`,
    `${noun}\\s+bis\\s+heute`,
    `seit\\s+(?:${GERMAN_START[unit]}|(?:beginn|anfang)\\s+(?:des|der|dieses|dieser)\\s+${noun})`,
    // Italian: "da inizio anno", "dall'inizio dell'anno", "dall'inizio di quest'anno", "anno fino ad oggi".
    `da\\s+inizio\\s+${noun}|dall'inizio\\s+(?:dell'|del\\s+|della\\s+|di\\s+quest'|di\\s+quest[oa]\\s+)${noun}`,
    `${noun}\\s+fino\\s+ad?\\s+oggi`,
  ].join('|');
}

/** Unit words after a count ("7 days", "3 meses", "2 semaines", "6 Monaten"). */
export const COUNTED_UNITS: Readonly<Record<PeriodUnit, string>> = {
  day: 'days?|dias?|jours?|tag(?:e|en)?|giorn[oi]',
  week: 'weeks?|semanas?|semaines?|wochen?|settiman[ae]',
  month: 'months?|mes(?:es)?|mois|monat(?:e|en)?|mes[ei]',
  quarter: 'quarters?|trimestres?|quartal(?:e|en)?|trimestri',
  year: 'years?|anos?|annees?|ans?|jahr(?:e|en)?|ann[oi]',
};
/** "last" before a count: last 7 days, últimos 7 días, letzte 7 Tage, derniers 7 jours. */
export const LAST_BEFORE_COUNT = `last|past|previous|prior|ultim[oa]s|ultim[ie]|(?:letzt|vergangen)${GERMAN_ENDING}|dernier(?:e)?s`;
/** "last" between count and unit: les 7 derniers jours, los 7 últimos días. */
export const LAST_AFTER_COUNT = 'ultim[oa]s|dernier(?:e)?s';

/** Month names and abbreviations of the six languages, to their month number. */
export const MONTH_NAMES: Readonly<Record<string, number>> = {
  january: 1, jan: 1, enero: 1, ene: 1, janvier: 1, janv: 1, januar: 1, janner: 1, janeiro: 1,
  february: 2, feb: 2, febrero: 2, fevrier: 2, fevr: 2, fev: 2, februar: 2, fevereiro: 2,
  march: 3, mar: 3, marzo: 3, mars: 3, marz: 3, marco: 3,
  april: 4, apr: 4, abril: 4, abr: 4, avril: 4, avr: 4,
  may: 5, mayo: 5, mai: 5, maio: 5,
  june: 6, jun: 6, junio: 6, juin: 6, juni: 6, junho: 6,
  july: 7, jul: 7, julio: 7, juillet: 7, juil: 7, juli: 7, julho: 7,
  august: 8, aug: 8, agosto: 8, ago: 8, aout: 8,
  september: 9, sept: 9, sep: 9, septiembre: 9, setiembre: 9, septembre: 9, setembro: 9, set: 9,
  october: 10, oct: 10, octubre: 10, octobre: 10, oktober: 10, okt: 10, outubro: 10, out: 10,
  november: 11, nov: 11, noviembre: 11, novembre: 11, novembro: 11,
  december: 12, dec: 12, diciembre: 12, dic: 12, decembre: 12, dezember: 12, dez: 12, dezembro: 12,
  // Italian (marzo, agosto, novembre and most abbreviations are above)
  gennaio: 1, gen: 1, febbraio: 2, aprile: 4, maggio: 5, mag: 5, giugno: 6, giu: 6, luglio: 7, lug: 7,
  settembre: 9, ottobre: 10, ott: 10, dicembre: 12,
};

const GERMAN_ORDINALS = Object.fromEntries(
  (['erst', 'zweit', 'dritt', 'viert'] as const).flatMap((stem, i) => ['e', 'es', 'en', 'er', 'em'].map((end) => [stem + end, i + 1])),
);
/** Ordinal words before "quarter"/"trimestre"/"Quartal". */
export const QUARTER_ORDINALS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4,
  primer: 1, primero: 1, segundo: 2, tercer: 3, tercero: 3, cuarto: 4,
  primeiro: 1, terceiro: 3, quarto: 4,
  premier: 1, deuxieme: 2, troisieme: 3, quatrieme: 4,
  primo: 1, secondo: 2, terzo: 3,
  ...GERMAN_ORDINALS,
};
/** 1st, 2nd, 1er, 2e, 2eme, 2º (folded to "2o"), 2. */
export const NUMERIC_ORDINAL = '[1-4](?:st|nd|rd|th|er|re|eme|e|o|a|\\.)?';
export const QUARTER_NOUN = 'quarter|trimestre|quartal';
/** Letters written before a quarter number: Q2 (everywhere), T2 (trimestre in es, fr, pt). */
export const QUARTER_LETTER = '[qt]';

/** Words that make the following year explicit: "in 2024", "durante 2024", "im Jahr 2024", "no ano de 2024". */
export const YEAR_MARKERS = 'in|for|during|throughout|en|durante|pendant|durant|pour|im|wahrend|fur|em|no|para|nel';
export const YEAR_NOUNS = 'year|ano|annee|jahr(?:es)?|anno';

/**
 * Words right before a bare number that make it a quantity or an identifier rather than a year
 * ("top 2000 customers", "orders over 2050", "order 2024").
 */
export const QUANTITY_BEFORE =
  'piu\\s+di|meno\\s+di|primi|prime|top|bottom|first|over|under|above|below|than|least|most|exactly|about|around|approximately|limit|' +
  'order|invoice|ticket|id|number|no\\.|nr\\.?|mas\\s+de|menos\\s+de|primeros|primeras|plus\\s+de|moins\\s+de|premiers|' +
  'mehr\\s+als|weniger\\s+als|uber|unter|ersten|mais\\s+de|primeiros|acima\\s+de|abaixo\\s+de';
/** Words right after a bare number that make it an amount ("2000 units", "2024 €", "2050%"). */
export const QUANTITY_AFTER = '%|\\$|€|£|k|units?|items?|pieces?|dollars?|euros?|usd|eur|gbp|times|rows|unidades|unites|stuck';

/** Nouns for half a year: first half, semestre, Halbjahr, erste Jahreshälfte, primera mitad, première moitié. */
export const HALF_NOUN = 'half(?:[\\s-]+year)?|halbjahr(?:es|s)?|jahreshalfte|halfte|semestre|mitad|moitie|metade|meta';
/** Ordinals before a half noun; a digit or "first"-like word is the first half, anything else the second. */
export const HALF_ORDINAL =
  'first|1st|primer[oa]?|premiere?|1re|primeir[oa]|prim[oa]|erst(?:e|es|en|er|em)|' +
  'second[eoa]?|2nd|segund[oa]|deuxieme|zweit(?:e|es|en|er|em)|[12](?:er|eme|e|o|a|\\.)?';
/** Letters of a half written with its number: H1 2019, 2019 H2, 1H 2019, S1 2019 (semestre), 1. HJ 2019 (Halbjahr). */
export const HALF_LETTER = 'hj|h|s';
/** Words joining a half to its year: first half of 2019, primer semestre del año pasado, zweites Halbjahr des Vorjahres. */
export const HALF_OF = 'of|de|del|do|da|du|des|der|von|della|dello';
/** Articles between that word and the year ("of the year", "de l'année dernière", "des letzten Jahres"). */
export const YEAR_ARTICLE = "(?:the|el|la|le|o|a|das|dem|den|il)\\s+|l'";
/** "the year" without a number, after a half: the current year ("first half of the year", "do ano"). */
export const THE_YEAR = 'year|ano|annee|jahr(?:es)?|anno';

/** Words opening a range: from, de/desde, du/depuis, von/vom, de/do/da. */
export const RANGE_FROM = 'from|de|del|desde|du|depuis|von|vom|do|da|dal';
/** Words closing a range: to, through, until; a, al, hasta; à, au, jusqu'à; bis; a, ao, até. */
export const RANGE_TO = "to|through|thru|until|till|a|al|hasta|au|jusqu'(?:a|au|en)|bis(?:\\s+zum)?|ao|ate|fino\\s+a(?:l|d)?";
/** Words for "between" and the "and" that follows it. */
export const RANGE_BETWEEN = 'between|entre|zwischen|tra|fra';
export const RANGE_AND = 'and|y|et|und|e';
/** A hyphen or dash between the two ends: Jan-Jun, Jan–Jun, 2017—2019. */
export const RANGE_DASH = '[-\u2013\u2014]';

/**
 * Words that start a period and run it to today: since March 2019, desde 2019, depuis 2019, seit 2019,
 * ab Q2 2024, and "since / from the start of 2019", "desde el inicio de 2019", "seit Anfang 2019".
 */
export const SINCE = [
  // Longest first: the alternation stops at the first that matches, and "since" alone is in "since the start of".
  '(?:since|from)\\s+the\\s+(?:start|beginning)\\s+of',
  '(?:desde|a\\s+partir)\\s+(?:d?el\\s+|d?o\\s+)?(?:inicio|comienzo|principio)\\s+(?:de|del|do|da)',
  'depuis\\s+le\\s+debut\\s+(?:de|du)|a\\s+partir\\s+du\\s+debut\\s+(?:de|du)',
  'seit\\s+(?:anfang|beginn)(?:\\s+(?:des|der|von))?',
  "dall'inizio\\s+(?:del|dell')|a\\s+partire\\s+da(?:l|ll')?",
  // Italian "dal" (since); bare "da" is also Portuguese "of the" ("vendas da semana passada").
  'since|desde|depuis|seit|ab|a\\s+partir\\s+(?:de|du|del|da|do)|dal',
].join('|');
/** Words after a period that leave it open: from 2019 onwards, de 2019 en adelante, de 2019 em diante. */
export const ONWARDS = 'onwards?|and\\s+(?:later|after)|en\\s+adelante|em\\s+diante|et\\s+apres|in\\s+poi';
/** What may end "from … to": today or now (then "from March 2019 to today" is "since March 2019"). */
export const NOW_WORDS = "today|now|date|the\\s+present|hoy|ahora|la\\s+fecha|aujourd'hui|maintenant|heute|jetzt|hoje|agora|a\\s+data|oggi|adesso";
/**
 * Words that bound a period on one side only ("before 2020", "until March 2019", "after Q2 2024"): the
 * range has no start (or no end) the grammar could give, so such a period is refused, not read as the unit.
 */
export const ONE_SIDED =
  "before|until|till|up\\s+to|prior\\s+to|after|antes\\s+de|hasta|despues\\s+de|avant|jusqu'(?:a|au|en)|apres|" +
  'vor|bis|nach\\s+dem|ate|depois\\s+de|apos|prima\\s+d(?:el|ell\'|i)|dopo';
/**
 * Words that make a range two periods to compare, or a change between its ends, rather than one period to
 * sum: "compare 2023 to 2024", "growth from 2018 to 2019", "Veränderung von 2018 bis 2019".
 */
export const COMPARE_WORDS = [
  'compar\\p{L}*|versus|vs|gegenuber|trends?|tendenc\\p{L}*|tendance',
  'chang\\p{L}*|grow\\p{L}*|increas\\p{L}*|decreas\\p{L}*|declin\\p{L}*|differen\\p{L}*|evol\\p{L}*',
  'rose|risen|fell|dropped',
  'cambi\\p{L}*|crec\\p{L}*|cresc\\p{L}*|aument\\p{L}*|augment\\p{L}*|disminu\\p{L}*|diminu\\p{L}*|variac\\p{L}*|variation',
  'croissance|hausse|baisse|mudanc\\p{L}*|gestiegen|gesunken',
  'confront\\p{L}*|rispetto|variazion\\p{L}*|crescita|calo',
].join('|');
/** German words for a change, also found at the end of a compound ("Umsatzwachstum", "Kostenvergleich"). */
export const COMPARE_COMPOUNDS = 'vergleich|veranderung|wachstum|anstieg|ruckgang|unterschied|entwicklung|zunahme|abnahme';
