// Which language a question is in, told from its function words: the articles, prepositions and
// question words that only one language uses ("cuántos", "combien", "wie viele", "quantos", "quanti",
// "nel", "des", "im"). Words that are English as well ("per", "total", "media", "die", "part", "in",
// "a", "no", "do", "come", "con", "pro") are never evidence, and a word typed with a capital inside
// the question is a name ("Los Angeles", "Del Mar"), not grammar. A question is English unless the
// best other language has more marked words than English has; so an English question is never
// rewritten or sent to be translated because of a name or a value in it.
import { readQuestionText } from './question-text.js';
import { normalise } from './text.js';

export type ForeignLanguage = 'es' | 'fr' | 'de' | 'pt' | 'it';
export type QuestionLanguage = 'en' | ForeignLanguage;

export const LANGUAGE_NAMES: Readonly<Record<QuestionLanguage, string>> = { en: 'English', es: 'Spanish', fr: 'French', de: 'German', pt: 'Portuguese', it: 'Italian' };

const set = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter(Boolean));

const ENGLISH = set(`
  the of how many much what which were was did does do by from with and last this there is are to at for show
  me give our we than has have been each into during between versus compared per
`);

/** Function words of each language that are no English words (accents stripped, as `normalise` does). */
const MARKED: Readonly<Record<ForeignLanguage, ReadonlySet<string>>> = {
  es: set(`
    cuantos cuantas cuanto cuanta cual cuales hubo hay habia los las del desde hacia segun excluyendo excepto
    salvo sin entre mas menos el en y para por cada ano mes durante tuvo fueron fue se que muestra dame numero
    promedio
  `),
  fr: set(`
    combien quel quelle quels quelles des du les au aux avec sans depuis vers dans pour est sont ete le et en
    qu d l par chaque moyenne moyen nombre sauf hors selon annee mois plus moins rapport entre
  `),
  de: set(`
    wie viele viel welche welcher welches wurden wurde gab gibt der das den dem des im vom zum zur von aus nach
    uber mit ohne und ist sind jahr monat pro je gesamt anzahl anteil durchschnittlich mehr weniger gegenuber
  `),
  pt: set(`
    quantos quantas quanta qual quais dos das da em na nas nos pelo pela para desde sem foram houve ano mes sao
    excluindo exceto entre mais menos numero ao aos por
  `),
  it: set(`
    quanti quante quanto quanta quale quali del della dei degli delle dello nel nella nei negli nelle al alla ai
    agli dal dalla dai dagli il gli lo sono stato stata stati state di senza tranne escluse esclusi escluso
    esclusa verso tramite rispetto piu anno mese numero ogni totale
  `),
};

/** Which words of the question count as evidence: not typed with a capital after the first word. */
function evidenceWords(question: string): string[] {
  // Words not aligned with the tokens (rare): every word counts, capitals or not.
  const typed = readQuestionText(question).words ?? normalise(question).split(' ').map((text) => ({ text }));
  return typed.filter((word, position) => position === 0 || !/^\p{Lu}/u.test(word.text)).flatMap((word) => normalise(word.text).split(' ').filter(Boolean));
}

/** The language of `question`: English unless another language's marked words outnumber English ones. */
export function questionLanguage(question: string): QuestionLanguage {
  const words = evidenceWords(question);
  const english = words.filter((word) => ENGLISH.has(word)).length;
  let best: { language: ForeignLanguage; count: number } | undefined;
  for (const language of Object.keys(MARKED) as ForeignLanguage[]) {
    const count = words.filter((word) => MARKED[language].has(word) && !ENGLISH.has(word)).length;
    if (count > 0 && (!best || count > best.count)) best = { language, count };
  }
  return best && best.count > english ? best.language : 'en';
}

/** Common English words of questions about data, for telling an English text from garbage. */
const ENGLISH_COMMON = set(`
  in on a an as that it its not no more fewer less most least top bottom best worst average total number share
  percentage percent proportion fraction rate change growth vs via excluding except without other between each every
  first second third fourth quarter half year month week day days since until so far where who when made sent
  went came started ended left arrived returned booked stayed sold paid used get got all any over under per what
  which how many much there their they our us
`);

/**
 * The share of the words of `text` that read as English: common English words, words `known` says
 * are the catalog's or the question's own (names, values, numbers).
 */
export function englishWordShare(text: string, known: (word: string) => boolean): number {
  const words = normalise(text).split(' ').filter(Boolean);
  if (words.length === 0) return 0;
  const english = words.filter((word) => ENGLISH.has(word) || ENGLISH_COMMON.has(word) || /^\d+$/.test(word) || known(word));
  return english.length / words.length;
}

/**
 * Grammar of the other languages that the planner reads without the model's help: function words,
 * and the share, negation and direction words it knows in every language. Never a word a synonym
 * should name.
 */
const GRAMMAR = set(`
  quota parte part anteil porcentaje porcentagem pourcentage percentuale proporcion proporcao frazione
  excluyendo excepto salvo sin sauf hors sans ohne ausser ausgenommen nicht kein keine exceto excluindo sem nao
  escluso esclusa esclusi escluse escludendo tranne eccetto senza non
  desde hacia hasta vers depuis aus nach von verso tramite da dal dalla
  por par pro per je cada chaque jede jeden jedes jeder ogni
`);

/** Whether `word` (as `normalise` writes it) is grammar of some language rather than a domain word. */
export function isGrammarOfAnyLanguage(word: string): boolean {
  return GRAMMAR.has(word) || ENGLISH.has(word) || Object.values(MARKED).some((marked) => marked.has(word));
}
