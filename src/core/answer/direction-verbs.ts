// Verbs that give a value its role: where a trip starts or ends, where money is sent from or to,
// where a guest comes from or stays. "started at Harbour Front", "left Campus North", "docked at
// Stadium Gate", "returned to Museum Square", "sent money to Mexico", "received in Spain". A verb of
// leaving or of arriving says the side by itself; a verb of moving ("sent", "went", "travelling") by
// its preposition. Place words ("stayed in Portugal", "hotels in Germany", "visited Italy") say where
// something happened: they bind a value to the field that plays no role (the hotel's country), never
// to a role. Accents are stripped, as `normalise` does.
import type { RoleSide } from './value-role-words.js';

const list = (text: string): string[] => text.split(' ');

// English forms; "pick up" and "drop off" keep their particle. Forms in "-s" are left out: they are as
// often plural nouns ("returns to Porto", "transfers to Mexico").
const LEAVING = list('start started starting begin began begun beginning depart departed departing leave left leaving originate originated originating unlocked rented');
const LEAVING_PHRASAL = ['pick up', 'picked up', 'picking up', 'set off', 'set out'];
const ARRIVING = list('end ended ending finish finished finishing arrive arrived arriving return returned returning dock docked docking terminate terminated terminating land landed landing receive received receiving');
const ARRIVING_PHRASAL = ['drop off', 'dropped off', 'dropping off'];
const LEAVING_PLACE = list('left leave leaving depart departed departing');
const REACHING_PLACE = list('reached reach reaching entered enter entering');
const MOVING = list('send sent sending ship shipped shipping go went going gone move moved moving travel travelled traveled travelling traveling fly flew flown transfer transferred transferring wire wired remit remitted come came coming head headed heading');
// Verbs whose subject plays a side: "which station started the most trips" (from), "which city
// received the most parcels" (to), "which country sold the most" (from).
const SENDING = list('send sends sent sending ship ships shipped shipping transfer transfers transferred wire wired remit remitted sell sells sold selling export exported');
const GETTING = list('receive receives received receiving buy buys bought buying purchase purchased import imported');
const SUBJECT_SIDES: ReadonlyMap<string, RoleSide> = new Map<string, RoleSide>([
  ...[...LEAVING, ...SENDING].map((verb) => [verb, 'from'] as const),
  ...[...ARRIVING, ...GETTING].map((verb) => [verb, 'to'] as const),
]);

/** The side the subject of `verb` plays, when the verb says one. */
export function subjectSide(verb: string): RoleSide | undefined {
  return SUBJECT_SIDES.get(verb);
}

/** Verbs of moving, which say no side by themselves: "sent within Spain" moves inside one place. */
export const MOVING_VERBS: ReadonlySet<string> = new Set(MOVING);
// What may stand between a verb of moving and its preposition: "sent money to", "sent home to".
const MOVED = ['', 'money ', 'funds ', 'cash ', 'home ', 'money home '];

const FROM_PREPOSITIONS = ['from', 'out of', 'at', 'in'];
const TO_PREPOSITIONS = ['to', 'into', 'at', 'in', 'on'];

// Spanish, French, German, Portuguese and Italian: the common participles and past forms with their preposition.
const OTHER_LANGUAGES: ReadonlyArray<readonly [string, RoleSide]> = [
  ...list('salio salieron salido salida salidas partio partieron partido partida partidas envio enviaron enviado enviada enviados enviadas').flatMap((verb) => [`${verb} de`, `${verb} desde`]).map((p) => [p, 'from'] as const),
  ...list('llego llegaron llegado llegada llegadas termino terminaron terminado terminada terminados terminadas').flatMap((verb) => [`${verb} a`, `${verb} en`]).map((p) => [p, 'to'] as const),
  ...list('enviado enviada enviados enviadas envio enviaron').map((verb) => [`${verb} a`, 'to'] as const),
  ...list('parti partis partie parties envoye envoyes envoyee envoyees').flatMap((verb) => [`${verb} de`, `${verb} d`, `${verb} depuis`]).map((p) => [p, 'from'] as const),
  ...list('arrive arrives arrivee arrivees termine termines terminee terminees').flatMap((verb) => [`${verb} a`, `${verb} au`, `${verb} en`]).map((p) => [p, 'to'] as const),
  ...list('envoye envoyes envoyee envoyees').flatMap((verb) => [`${verb} a`, `${verb} au`, `${verb} en`, `${verb} vers`]).map((p) => [p, 'to'] as const),
  ...list('startete starteten gestartet begann begannen abgefahren').flatMap((verb) => [`${verb} an`, `${verb} in`, `${verb} von`, `${verb} ab`]).map((p) => [p, 'from'] as const),
  ...list('endete endeten geendet ankam ankamen angekommen').flatMap((verb) => [`${verb} an`, `${verb} in`, `${verb} am`, `${verb} im`]).map((p) => [p, 'to'] as const),
  ...list('gesendet geschickt uberwiesen').flatMap((verb) => [`${verb} nach`, `${verb} an`]).map((p) => [p, 'to'] as const),
  ...list('saiu sairam saido saida partiu partiram enviado enviada enviados enviadas enviou enviaram').flatMap((verb) => [`${verb} de`, `${verb} do`, `${verb} da`]).map((p) => [p, 'from'] as const),
  ...list('chegou chegaram chegado chegada terminou terminaram').flatMap((verb) => [`${verb} a`, `${verb} em`, `${verb} no`, `${verb} na`]).map((p) => [p, 'to'] as const),
  ...list('partito partita partiti partite inviato inviata inviati inviate').flatMap((verb) => [`${verb} da`, `${verb} dal`, `${verb} dalla`, `${verb} dagli`, `${verb} dai`]).map((p) => [p, 'from'] as const),
  ...list('arrivato arrivata arrivati arrivate terminato terminata terminati terminate').flatMap((verb) => [`${verb} a`, `${verb} al`, `${verb} alla`, `${verb} in`]).map((p) => [p, 'to'] as const),
  ...list('inviato inviata inviati inviate').flatMap((verb) => [`${verb} a`, `${verb} in`, `${verb} verso`]).map((p) => [p, 'to'] as const),
  // Italian prepositions alone, as the other languages' are ("da Roma", "verso il Messico").
  ...list('da dal dalla dallo dagli dai').map((p) => [p, 'from'] as const),
  ...list('verso').map((p) => [p, 'to'] as const),
];

/** Verb phrases that, right before a value (articles aside), say which side it plays. */
export const DIRECTION_VERB_CUES: ReadonlyArray<readonly [string, RoleSide]> = [
  ...[...LEAVING, ...LEAVING_PHRASAL].flatMap((verb) => FROM_PREPOSITIONS.map((p) => `${verb} ${p}`)).map((p) => [p, 'from'] as const),
  ...[...ARRIVING, ...ARRIVING_PHRASAL].flatMap((verb) => TO_PREPOSITIONS.map((p) => `${verb} ${p}`)).map((p) => [p, 'to'] as const),
  // Verbs whose object is the place itself: "left Campus North", "reached Porto".
  ...LEAVING_PLACE.map((verb) => [verb, 'from'] as const),
  ...REACHING_PLACE.map((verb) => [verb, 'to'] as const),
  ...MOVING.flatMap((verb) => MOVED.flatMap((moved) => [`${verb} ${moved}from`, `${verb} ${moved}out of`])).map((p) => [p, 'from'] as const),
  ...MOVING.flatMap((verb) => MOVED.flatMap((moved) => [`${verb} ${moved}to`, `${verb} ${moved}into`])).map((p) => [p, 'to'] as const),
  ...OTHER_LANGUAGES,
];

/**
 * Words right before a value that place it ("stayed in Portugal", "at hotels in Spain", "visited
 * Italy", "negli hotel in Germania"): where the thing counted happened, not where it came from or went.
 */
export const PLACE_VERBS: ReadonlySet<string> = new Set(list('stayed staying stay stays visited visit visits spent'));
export const PLACE_CUES: ReadonlyArray<readonly string[]> = [
  ...[...PLACE_VERBS].flatMap((verb) => [verb, `${verb} in`, `${verb} at`]),
  ...list('in at inside within en em no na nos nas im nel nella nei negli'),
  'in der', 'in den', 'in dem',
]
  .map((phrase) => (typeof phrase === 'string' ? list(phrase) : phrase))
  .sort((a, b) => b.length - a.length);
