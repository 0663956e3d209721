// The words that give a value its role, in EN/ES/FR/DE/PT, accents stripped as `normalise` does.
// Two families: direction (where something comes from / goes to, who sells / who buys) and venue
// (home / away). Dimension words classify a dimension; cue phrases in a question bind a value.

import { DIRECTION_VERB_CUES } from './direction-verbs.js';

export type RoleFamily = 'direction' | 'venue';
export type RoleSide = 'from' | 'to' | 'home' | 'away';

export const FAMILY_OF: Readonly<Record<RoleSide, RoleFamily>> = { from: 'direction', to: 'direction', home: 'venue', away: 'venue' };
export const OPPOSITE: Readonly<Record<RoleSide, RoleSide>> = { from: 'to', to: 'from', home: 'away', away: 'home' };

const words = (text: string): string[] => text.split(' ');

/** Words in a dimension's name, label or role that give it a side; they are also nouns a question may use ("origin Lyon"). */
export const SIDE_WORDS: ReadonlyMap<string, RoleSide> = new Map<string, RoleSide>([
  ...words('from origin source sender seller vendor supplier departure pickup shipper outbound start loading exporter payer lender origen origine herkunft vendedor vendeur verkaufer absender remitente expediteur').map((w) => [w, 'from'] as const),
  ...words('to destination dest target recipient receiver buyer purchaser arrival delivery dropoff consignee inbound end unloading discharge importer payee borrower destino ziel comprador acheteur kaufer empfanger destinatario destinataire').map((w) => [w, 'to'] as const),
  ...words('home host local').map((w) => [w, 'home'] as const),
  ...words('away visitor visiting guest visitante gast').map((w) => [w, 'away'] as const),
]);

/** Plural and feminine forms of the participles used in cues ("vendidas por"). */
function forms(stem: string, endings: readonly string[]): string[] {
  return endings.map((ending) => `${stem}${ending}`);
}
const ES_PT = ['o', 'a', 'os', 'as'];
const FR = ['', 's', 'e', 'es'];

/** Phrases that, right before a value, say which side it plays ("from Austin", "vendu par Acme"). */
const DIRECTION_CUES: ReadonlyArray<readonly [string, RoleSide]> = [
  // English
  ...['from', 'out of', 'went out of', 'shipped out of', 'departing', 'departing from', 'leaving', 'leaving from', 'originating in', 'originating from', 'coming from', 'came from', 'sold by', 'shipped from', 'sent from', 'bought from', 'purchased from'].map((p) => [p, 'from'] as const),
  ...['to', 'into', 'arriving', 'arriving in', 'arriving at', 'bound for', 'headed to', 'heading to', 'going to', 'went to', 'destined for', 'delivered to', 'shipped to', 'sent to', 'sold to', 'bought by', 'purchased by'].map((p) => [p, 'to'] as const),
  // Spanish and Portuguese
  ...['desde', 'de', 'del', 'da', 'do', 'dos', 'das', 'saliendo de', 'saindo de', ...forms('vendid', ES_PT).map((w) => `${w} por`)].map((p) => [p, 'from'] as const),
  ...['a', 'al', 'hacia', 'hasta', 'para', 'ate', 'con destino a', 'com destino a', 'llegando a', 'chegando a', 'chegando em', ...forms('comprad', ES_PT).map((w) => `${w} por`), ...forms('vendid', ES_PT).flatMap((w) => [`${w} a`, `${w} para`])].map((p) => [p, 'to'] as const),
  // French
  ...['depuis', 'du', 'des', 'd', 'en provenance de', 'en provenance d', 'partant de', 'partant d', ...forms('vendu', FR).map((w) => `${w} par`), ...forms('achete', FR).map((w) => `${w} a`)].map((p) => [p, 'from'] as const),
  ...['au', 'aux', 'vers', 'a destination de', 'a destination d', 'arrivant a', ...forms('achete', FR).map((w) => `${w} par`), ...forms('vendu', FR).map((w) => `${w} a`)].map((p) => [p, 'to'] as const),
  // German
  ...['von', 'aus', 'ab', 'verkauft von', 'gekauft bei'].map((p) => [p, 'from'] as const),
  ...['nach', 'zu', 'zum', 'zur', 'gekauft von', 'verkauft an'].map((p) => [p, 'to'] as const),
];

/** Phrases anywhere in a question that say home or away ("at home", "fuera de casa", "auswärts"). */
const VENUE_CUES: ReadonlyArray<readonly [string, RoleSide]> = [
  ...['home', 'at home', 'en casa', 'em casa', 'casa', 'local', 'a domicile', 'domicile', 'zu hause', 'zuhause', 'heim', 'heimspiel', 'heimspiele', 'host'].map((p) => [p, 'home'] as const),
  ...['away', 'on the road', 'visitor', 'visitors', 'visiting', 'visitante', 'visitantes', 'fuera', 'fuera de casa', 'fora', 'fora de casa', 'a l exterieur', 'exterieur', 'en deplacement', 'deplacement', 'auswarts', 'auswartsspiel', 'auswartsspiele', 'gast'].map((p) => [p, 'away'] as const),
];

export interface Cue {
  readonly words: readonly string[];
  readonly side: RoleSide;
}

function cues(list: ReadonlyArray<readonly [string, RoleSide]>): Cue[] {
  // Longest first, so "bought by" wins over "by" and "fuera de casa" over "casa".
  return list.map(([phrase, side]) => ({ words: words(phrase), side })).sort((a, b) => b.words.length - a.words.length);
}

/** Prepositions after which a place belongs to the role named before them: "sellers in Spain", "senders based in France". */
const ROLE_PLACE_WORDS = ['in', 'from', 'based in', 'located in'];
/**
 * "sellers in Spain", "buyers in the United States", "recipients based in France": the noun of a role
 * (a side word, singular or plural) and a place preposition bind the value after them to that role.
 */
const ROLE_NOUN_CUES: ReadonlyArray<readonly [string, RoleSide]> = [...SIDE_WORDS]
  .filter(([word, side]) => FAMILY_OF[side] === 'direction' && word !== 'from' && word !== 'to')
  .flatMap(([word, side]) => [word, `${word}s`].flatMap((noun) => ROLE_PLACE_WORDS.map((place) => [`${noun} ${place}`, side] as const)));

export const DIRECTION_CUE_LIST: readonly Cue[] = cues([...DIRECTION_CUES, ...DIRECTION_VERB_CUES, ...ROLE_NOUN_CUES, ...[...SIDE_WORDS].filter(([, side]) => FAMILY_OF[side] === 'direction')]);
export const VENUE_CUE_LIST: readonly Cue[] = cues([...VENUE_CUES, ...[...SIDE_WORDS].filter(([, side]) => FAMILY_OF[side] === 'venue')]);

/** Articles skipped between a cue and its value ("from the Lions", "de la Sevilla"). */
export const ARTICLES: ReadonlySet<string> = new Set(words('the el la los las le les l der die das dem den o os as'));
