// Text handling shared by the catalog index and the offline planner. Questions and catalog entries go
// through the same pipeline (normalise → tokenise → lexicon → stem), so a synonym written "Käufer" in
// CML matches "kaufer" typed without the umlaut, and "orders" matches "order".

import { stem } from './stemmer.js';

export { stem };

/** One word of a question or of a catalog entry. */
export interface Token {
  /** Lower case, accents stripped, as written otherwise. */
  readonly raw: string;
  /** After the lexicon and the stemmer: what matching compares. */
  readonly stem: string;
  /** Grammar words (articles, question words, fillers like "total" or "number"): never content. */
  readonly stop: boolean;
}

/** Lower case, no accents, apostrophes and punctuation turned into spaces ("d'affaires" → "d affaires"). */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

// Articles, prepositions, question words and quantity fillers in EN/ES/FR/DE/PT. Quantity fillers
// ("total", "number", "count", "amount") are stop words on both sides, so the synonym "number of
// orders" reduces to "order" and "how many orders" still finds it.
const STOP_WORDS = new Set(
  [
    // English
    'a an the of in on at to for from with into about and or is are was were be been being do does did',
    'have has had what which who whom whose how much many show me give list tell get see our my we us i',
    'you your please all any there their this that these those it its can could would will total number',
    'count amount sum figure figures overall broken down split breakdown whats s than make made generate generated',
    'bring brought earn earned current currently right now so far',
    // Spanish
    'que cual cuales cuanto cuantos cuanta cuantas son es fue fueron hay muestra muestrame dame de del',
    'en el la los las un una unos unas y o para con nuestro nuestros nuestra nuestras numero cantidad mi mis',
    'me se lo al hubo habia ha han tuvimos tenemos tuvo tiene hicimos vendimos',
    // French
    'quel quelle quels quelles combien est sont le les l d du des une et ou dans pour avec notre nos',
    'montre montrez moi donne donnez nombre montant ce c qu y a eu avons avait fait',
    // German
    'wie viel viele was welche welcher welches ist sind war der die das den dem des ein eine einen und',
    'oder im fur mit von zeig zeige mir unsere unser unseren gesamt anzahl insgesamt gib summe es gibt gab hatten haben hatte',
    // Portuguese
    'qual quais quanto quantos quantas quanta e os as do da dos das em no na nas um uma com nosso',
    'nossa nossos nossas mostre mostra quantidade foi foram sao houve ha tivemos temos teve',
  ]
    .join(' ')
    .split(' '),
);

// Verbs and function words that say how a number came about without restricting it: "orders were
// placed", "visits came in", "se registraron", "wurden erfasst". Not stop words: the planner ignores
// one only when the catalog knows it as no metric, dimension or value word, so "registered" still
// filters where it is a status. Words that do restrict ("cancelled", "late", "returned", "online")
// are deliberately absent: unknown, they keep a question from being answered.
const NON_RESTRICTING = new Set(
  [
    // English
    'place placed came come comes coming went go goes going gone sold sell sells selling fell fall falls fallen',
    'happen happens happened occur occurs occurred record recorded register registered log logged took take takes',
    'taken got gotten receive received enter entered process processed exactly altogether ever through via during',
    'within that who they have has get',
    // Spanish
    'realizado realizada realizados realizadas realizaron realizo hecho hecha hechos hechas hicieron',
    'registrado registrada registrados registradas registraron vendido vendida vendidos vendidas vendieron',
    'vendio ocurrieron ocurrio pasaron tuvieron recibido recibidos recibidas recibimos entraron llegaron',
    'efectuado efectuados efectuadas nos',
    // French
    'passe passes passee passees effectue effectues effectuee effectuees enregistre enregistres enregistree',
    'enregistrees vendu vendus vendue vendues faits faite faites ete ont recu recus recue recues arrive arrives',
    'arrivee arrivees on nous il ils elle elles qui au aux',
    // German
    'wurden wurde worden gemacht getatigt verkauft registriert erfasst aufgegeben eingegangen hat wir uns bei',
    'beim am an zum zur dort',
    // Portuguese
    'realizaram feito feita feitos feitas fizeram registrada registraram venderam vendeu ocorreram',
    'aconteceram tiveram recebidas recebemos entraram ao aos',
  ]
    .join(' ')
    .split(' '),
);
// Particles that belong to such a verb ("went out", "came in", "gone through"): ignorable only right after one.
const VERB_PARTICLES = new Set(['out', 'in', 'up', 'off', 'through', 'over']);

/**
 * Whether the word at `position` of `raws` may be read as restricting nothing, the catalog aside (the
 * caller checks that it names no metric, dimension or value).
 */
export function isNonRestricting(raws: readonly string[], position: number): boolean {
  const raw = raws[position]!;
  if (NON_RESTRICTING.has(raw)) return true;
  return VERB_PARTICLES.has(raw) && position > 0 && NON_RESTRICTING.has(raws[position - 1]!);
}

// Common analytics words of ES/FR/DE/PT mapped to the English word the catalog is written in: names
// of dimensions and time grains are English in CML, synonyms cover metrics but not dimensions.
const LEXICON: Readonly<Record<string, string>> = {
  canal: 'channel', canales: 'channel', canaux: 'channel', kanal: 'channel', kanale: 'channel', kanalen: 'channel', canais: 'channel',
  regiones: 'region', regionen: 'region', regiao: 'region', regioes: 'region',
  pais: 'country', paises: 'country', pays: 'country', land: 'country', lander: 'country', laender: 'country',
  segmento: 'segment', segmentos: 'segment', segmente: 'segment', segmenten: 'segment',
  estado: 'status', estados: 'status', statut: 'status', statuts: 'status', situacao: 'status',
  categoria: 'category', categorias: 'category', categorie: 'category', categories: 'category', kategorie: 'category', kategorien: 'category',
  mes: 'month', meses: 'month', mois: 'month', monat: 'month', monate: 'month', monaten: 'month',
  semana: 'week', semanas: 'week', semaine: 'week', semaines: 'week', woche: 'week', wochen: 'week',
  dia: 'day', dias: 'day', jour: 'day', jours: 'day', tag: 'day', tage: 'day', tagen: 'day',
  trimestre: 'quarter', trimestres: 'quarter', quartal: 'quarter', quartale: 'quarter',
  ano: 'year', anos: 'year', annee: 'year', annees: 'year', jahr: 'year', jahre: 'year',
  producto: 'product', productos: 'product', produit: 'product', produits: 'product', produkt: 'product', produkte: 'product', produto: 'product', produtos: 'product',
  ciudad: 'city', ciudades: 'city', ville: 'city', villes: 'city', stadt: 'city', stadte: 'city', cidade: 'city', cidades: 'city',
  departamento: 'department', departamentos: 'department', departement: 'department', departements: 'department', abteilung: 'department', abteilungen: 'department',
  sucursal: 'branch', sucursales: 'branch', agence: 'branch', agences: 'branch', filiale: 'branch', filialen: 'branch', filial: 'branch', filiais: 'branch',
};

// Nouns in "-y" that are no adjective of a shorter word ("party" is not "part"-like, "story" not "stor").
const NOUNS_IN_Y = new Set(['party', 'story', 'entry', 'army', 'city', 'body', 'copy', 'duty', 'country', 'county', 'penny', 'bunny', 'berry', 'jelly', 'lorry', 'ferry', 'curry', 'carry', 'query', 'quarry']);

// Compass adjectives: "northern region" is the region 'North'.
const COMPASS = new Set(['north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest']);

/**
 * What an adjective is made from: "rainy" → rain, "sunny" → sun, "cloudy" → cloud, "hazy" → haze,
 * "smoky" → smoke, "northern" → north. The planner tries these only for a word the catalog does not
 * know, and keeps one only when it is a catalog or value word; "-ly" adverbs ("lately") are never
 * read this way, nor four-letter words but by restoring an "e" ("busy" is not "bus").
 */
export function adjectiveBases(stemmed: string): string[] {
  if (stemmed.endsWith('ern') && COMPASS.has(stemmed.slice(0, -3))) return [stemmed.slice(0, -3)];
  if (stemmed.length < 4 || !/[^aeiouy]y$/.test(stemmed) || stemmed.endsWith('ly') || NOUNS_IN_Y.has(stemmed)) return [];
  const base = stemmed.slice(0, -1);
  if (stemmed.length === 4) return [`${base}e`];
  return /([bdfgmnprt])\1$/.test(base) ? [base, base.slice(0, -1)] : [base, `${base}e`];
}

export function isStopWord(raw: string): boolean {
  return STOP_WORDS.has(raw);
}

/** Every word of `text`, stop words included (flagged), in order. */
export function tokenise(text: string): Token[] {
  const normalised = normalise(text);
  if (normalised === '') return [];
  return normalised.split(' ').map((raw) => {
    const translated = LEXICON[raw] ?? raw;
    return { raw, stem: stem(translated), stop: STOP_WORDS.has(raw) };
  });
}

/** The stems of the content words of `text`, in order (what a catalog phrase is matched by). */
export function contentStems(text: string): string[] {
  return tokenise(text)
    .filter((token) => !token.stop)
    .map((token) => token.stem);
}

/** A CML name like `average_order_value` read as words. */
export function identifierWords(name: string): string {
  return name.replace(/_/g, ' ');
}
