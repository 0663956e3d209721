// The analytical vocabulary of Spanish, French, German, Portuguese and Italian, phrase by phrase, with
// the English the planner and the period grammar read: question words, average / total / number of,
// share, excluding, "by", top / most / least, "via", comparison cues ("par rapport à" → "compared
// to", "in più" → "more", "más … que" → "more … than"), months, weekdays and "first quarter" forms.
// Domain words ("viajes", "Buchungen") are deliberately absent: the model's synonyms name those.
//
// Left out on purpose, because the planner already reads them in every language and a rewrite would
// break the phrases they belong to: the markers "por / par / pro / per / je / nach" (a breakdown or a
// ratio, decided by what follows: "ingresos por tarifas", "por viaje", "nach Kanal", "nach Mexiko"),
// the direction prepositions it binds to roles ("desde", "hacia", "de", "aus", "vers", "verso", "da"
// with the verbs before them, "partiti da", "endeten an"), negation cues and share words.
// Phrases are lower case without accents, as `normalise` writes them.
import type { ForeignLanguage } from './question-language.js';

export interface LexiconEntry {
  /** The words as `normalise` writes them. */
  readonly words: readonly string[];
  readonly english: string;
  /** Only when one of these words came earlier in the question ("más … que" → "than"). */
  readonly after?: ReadonlySet<string>;
  /** Not when the next word is a number ("über 100" is "more than 100", not "via"). */
  readonly notBeforeNumber?: boolean;
}

type Row = readonly [phrases: string, english: string];

/** Rows of "phrase, phrase, …" → English. */
function entries(rows: readonly Row[], options: Omit<LexiconEntry, 'words' | 'english'> = {}): LexiconEntry[] {
  return rows.flatMap(([phrases, english]) => phrases.split(',').map((phrase) => ({ words: phrase.trim().split(' '), english, ...options })));
}

const COMPARATIVES: Readonly<Record<ForeignLanguage, ReadonlySet<string>>> = {
  es: new Set(['mas', 'menos']),
  fr: new Set(['plus', 'moins']),
  de: new Set(['mehr', 'weniger']),
  pt: new Set(['mais', 'menos']),
  it: new Set(['piu', 'meno']),
};

const MONTHS: Readonly<Record<ForeignLanguage, string>> = {
  es: 'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre',
  fr: 'janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre',
  de: 'januar februar marz april mai juni juli august september oktober november dezember',
  pt: 'janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro',
  it: 'gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre',
};
const WEEKDAYS: Readonly<Record<ForeignLanguage, string>> = {
  es: 'lunes martes miercoles jueves viernes sabado domingo',
  fr: 'lundi mardi mercredi jeudi vendredi samedi dimanche',
  de: 'montag dienstag mittwoch donnerstag freitag samstag sonntag',
  pt: 'segunda terca quarta quinta sexta sabado domingo',
  it: 'lunedi martedi mercoledi giovedi venerdi sabato domenica',
};
const ENGLISH_MONTHS = 'january february march april may june july august september october november december'.split(' ');
const ENGLISH_WEEKDAYS = 'monday tuesday wednesday thursday friday saturday sunday'.split(' ');

function calendar(language: ForeignLanguage): LexiconEntry[] {
  const months = MONTHS[language].split(' ').map((word, i) => [word, ENGLISH_MONTHS[i]!] as const);
  const days = WEEKDAYS[language].split(' ').map((word, i) => [word, ENGLISH_WEEKDAYS[i]!] as const);
  // Plural weekdays ("los lunes", "les lundis", "montags") ask for the same day.
  const plural = days.flatMap(([word, english]) => [[`${word}s`, english] as const]);
  return entries([...months, ...days, ...plural]);
}

/** "primer trimestre" → "first quarter", in each language. */
const QUARTERS: Readonly<Record<ForeignLanguage, readonly Row[]>> = {
  es: [['primer trimestre, primero trimestre', 'first quarter'], ['segundo trimestre', 'second quarter'], ['tercer trimestre', 'third quarter'], ['cuarto trimestre', 'fourth quarter'], ['semestre', 'half']],
  fr: [['premier trimestre', 'first quarter'], ['deuxieme trimestre, second trimestre', 'second quarter'], ['troisieme trimestre', 'third quarter'], ['quatrieme trimestre', 'fourth quarter'], ['semestre', 'half']],
  de: [['erstes quartal, ersten quartal, erste quartal', 'first quarter'], ['zweites quartal, zweiten quartal, zweite quartal', 'second quarter'], ['drittes quartal, dritten quartal, dritte quartal', 'third quarter'], ['viertes quartal, vierten quartal, vierte quartal', 'fourth quarter'], ['halbjahr', 'half']],
  pt: [['primeiro trimestre', 'first quarter'], ['segundo trimestre', 'second quarter'], ['terceiro trimestre', 'third quarter'], ['quarto trimestre', 'fourth quarter'], ['semestre', 'half']],
  it: [['primo trimestre', 'first quarter'], ['secondo trimestre', 'second quarter'], ['terzo trimestre', 'third quarter'], ['quarto trimestre', 'fourth quarter'], ['semestre', 'half']],
};

const PHRASES: Readonly<Record<ForeignLanguage, readonly Row[]>> = {
  es: [
    ['cuantos, cuantas', 'how many'], ['cuanto, cuanta', 'how much'], ['cual, cuales', 'which'],
    ['promedio, media, medio', 'average'], ['tasa', 'rate'],
    ['desglosado por, desglosados por, desglosada por, desglosadas por, segun', 'by'],
    ['a traves de, mediante, via, por medio de', 'via'],
    ['en comparacion con, comparado con, comparada con, comparados con, en relacion con, con respecto a, con respecto al, respecto a, respecto al', 'compared to'],
    ['frente a, frente al', 'versus'],
    ['crecimiento', 'growth'], ['cambio, variacion', 'change'],
    ['entre', 'between'], ['mas', 'more'], ['menos', 'fewer'],
  ],
  fr: [
    ['combien de, combien d, combien', 'how many'],
    ['moyenne, moyen, moyens, moyennes', 'average'], ['taux', 'rate'],
    ['ventile par, ventiles par, reparti par, repartis par, selon', 'by'],
    ['par l intermediaire de, par l intermediaire d, par le biais de, par le biais du, via', 'via'],
    ['par rapport a, par rapport au, par rapport aux, compare a, compare au, comparee a, comparee au, en comparaison avec', 'compared to'],
    ['en plus', 'more'],
    ['croissance', 'growth'], ['evolution, variation', 'change'],
    ['entre', 'between'], ['avec', 'with'], ['plus', 'more'], ['moins', 'fewer'],
  ],
  de: [
    ['wie viele', 'how many'], ['wie viel', 'how much'],
    ['durchschnitt, durchschnittlich, durchschnittliche, durchschnittlichen, durchschnittlicher, durchschnittliches, mittlere, mittleren, mittlerer', 'average'],
    ['rate, quote', 'rate'],
    ['aufgeschlusselt nach, aufgeteilt nach, gegliedert nach', 'by'],
    ['uber, via', 'via'],
    ['im vergleich zu, im vergleich zum, im vergleich zur, verglichen mit', 'compared to'],
    ['gegenuber', 'versus'],
    ['wachstum', 'growth'], ['veranderung, entwicklung', 'change'],
    ['zwischen', 'between'], ['mit', 'with'], ['mehr', 'more'], ['weniger', 'fewer'],
  ],
  pt: [
    ['quantos, quantas', 'how many'], ['quanto, quanta', 'how much'], ['qual, quais', 'which'],
    ['media, medio', 'average'], ['taxa', 'rate'],
    ['discriminado por, discriminados por, segundo', 'by'],
    ['atraves de, atraves do, atraves da, por meio de, por meio do, por meio da, via', 'via'],
    ['em comparacao com, comparado com, comparada com, em relacao a, em relacao ao, face a, face ao', 'compared to'],
    ['a mais', 'more'],
    ['crescimento', 'growth'], ['variacao, mudanca', 'change'],
    ['entre', 'between'], ['mais', 'more'], ['menos', 'fewer'],
  ],
  it: [
    ['quanti, quante', 'how many'], ['quanto, quanta', 'how much'], ['quale, quali', 'which'], ['qual e', 'what is'],
    ['e stato, e stata, e stati, e state, sono stati, sono state', 'was'], ['c erano, ci sono stati, ci sono state', 'were there'], ['sono', 'were'],
    ['media, medio, medi, medie', 'average'], ['tasso', 'rate'], ['numero di, numero dei, numero delle, numero degli', 'number of'], ['totale', 'total'],
    ['ogni, ciascun, ciascuno, ciascuna, per ogni', 'each'],
    ['suddiviso per, suddivisi per, suddivisa per, suddivise per, diviso per, divisi per', 'by'],
    ['tramite, attraverso, via', 'via'],
    ['rispetto a, rispetto al, rispetto allo, rispetto alla, rispetto ai, rispetto agli, rispetto alle, rispetto, in confronto a, in confronto al, a confronto con, confrontato con, confrontati con', 'compared to'],
    ['in piu', 'more'], ['in meno', 'fewer'], ['piu', 'more'], ['meno', 'fewer'],
    ['migliori, principali', 'top'], ['peggiori', 'worst'],
    ['crescita', 'growth'], ['variazione, cambiamento', 'change'],
    ['due', 'two'], ['tre', 'three'], ['quattro', 'four'], ['cinque', 'five'], ['dieci', 'ten'],
    // Articles and articulated prepositions: the other languages' are stop words of the planner already.
    ['il, lo, la, i, gli, le, l', 'the'], ['un, uno, una', 'a'], ['di', 'of'],
    ['del, dello, della, dei, degli, delle, dell', 'of the'], ['nel, nello, nella, nei, negli, nelle, nell', 'in the'],
    ['con', 'with'], ['tra, fra', 'between'], ['su, sul, sulla', 'on'],
  ],
};

/** "más … que", "plus … que", "mehr … als", "mais … do que", "più … che / di": "than" after a comparative. */
const THAN: Readonly<Record<ForeignLanguage, readonly Row[]>> = {
  es: [['que, de lo que', 'than']],
  fr: [['que, qu', 'than']],
  de: [['als', 'than']],
  pt: [['do que, que', 'than']],
  it: [['che, di quanto', 'than']],
};

function buildLexicon(language: ForeignLanguage): LexiconEntry[] {
  const all = [
    ...entries(PHRASES[language]),
    ...entries(QUARTERS[language]),
    ...entries(THAN[language], { after: COMPARATIVES[language] }),
    ...calendar(language),
  ].map((entry) => (language === 'de' && entry.words.join(' ') === 'uber' ? { ...entry, notBeforeNumber: true } : entry));
  // Longest first: "rispetto al" before "rispetto", "in piu" before "piu".
  return all.sort((a, b) => b.words.length - a.words.length);
}

const LEXICONS: Readonly<Record<ForeignLanguage, readonly LexiconEntry[]>> = {
  es: buildLexicon('es'),
  fr: buildLexicon('fr'),
  de: buildLexicon('de'),
  pt: buildLexicon('pt'),
  it: buildLexicon('it'),
};

/** The phrases of `language`, longest first. */
export function analyticalLexicon(language: ForeignLanguage): readonly LexiconEntry[] {
  return LEXICONS[language];
}
