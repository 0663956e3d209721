// Prose written by the language model, kept honest: the model rewrites the facts of the answer (the
// templated sentence and the rows, formatted) into plainer English, and its text is used only when
// every number in it appears in those facts and it reads as English. Otherwise the templated prose
// stands, so a model can word an answer but never change a number or its language (spec 1.8).

/** What the model sees: facts only, already formatted. */
export interface ProseFacts {
  readonly question: string;
  /** The templated answer: always correct, the model's starting point. */
  readonly template: string;
  /** Result rows as `label: formatted value` lines, capped. */
  readonly rows: readonly string[];
}

export const PROSE_MAX_TOKENS = 250;
const MAX_PROSE_CHARACTERS = 1200;
const ROWS_SHOWN = 20;

const INSTRUCTIONS = [
  'Write the answer to the question for a business reader, in English, in one to three plain sentences.',
  'Use only the facts given. Write every number exactly as it appears in the facts; do not round, add up, compare or compute anything.',
  'Keep the period and its dates. No markdown, no lists, no preamble.',
].join('\n');

export function proseRequest(facts: ProseFacts): { system: string; user: string } {
  const rows = facts.rows.slice(0, ROWS_SHOWN);
  const more = facts.rows.length > rows.length ? [`(${facts.rows.length - rows.length} more rows)`] : [];
  return {
    system: INSTRUCTIONS,
    user: [`Question: ${facts.question.trim()}`, `Facts: ${facts.template}`, ...(rows.length ? ['Rows:', ...rows, ...more] : [])].join('\n'),
  };
}

/**
 * Numbers as written ("$1,577,611.24", "12.5%", "2026-10-01") with their values: 1577611.24, 12.5,
 * 2026, 10, 1. A number that does not read as English digits ("611,24") has value NaN, which matches
 * nothing, so foreign formatting never passes the check.
 */
export function numbersIn(text: string): Array<{ written: string; value: number }> {
  return [...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((match) => {
    const written = match[0].replace(/,$/, '');
    return { written, value: /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^\d+(?:\.\d+)?$/.test(written) ? Number(written.replaceAll(',', '')) : Number.NaN };
  });
}

type Detector = { detect(text: string): { language: string } };
let detector: Promise<Detector> | undefined;

/** eld's medium n-gram set (about 0.6 s to load): loaded on first use, or ahead of it with warmUp. */
function languageDetector(): Promise<Detector> {
  detector ??= import('eld/medium').then((module) => module.eld as Detector);
  return detector;
}

export function warmUpProseCheck(): void {
  void languageDetector().catch(() => (detector = undefined));
}

export type ProseCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The model's prose may be used only if it is English and each of its numbers is one of the facts'. */
export async function checkProse(prose: string, facts: ProseFacts): Promise<ProseCheck> {
  const text = prose.trim();
  if (text === '') return { ok: false, reason: 'empty prose' };
  if (text.length > MAX_PROSE_CHARACTERS) return { ok: false, reason: 'prose too long' };
  if (/```|^\s*[-*#]\s/m.test(text)) return { ok: false, reason: 'prose is formatted, not plain sentences' };
  const known = new Set(numbersIn([facts.template, ...facts.rows].join('\n')).map((n) => n.value));
  const invented = numbersIn(text).filter((n) => !known.has(n.value));
  if (invented.length) return { ok: false, reason: `prose has numbers not in the rows: ${[...new Set(invented.map((n) => n.written))].slice(0, 5).join(', ')}` };
  const language = (await languageDetector()).detect(text).language;
  if (language !== 'en') return { ok: false, reason: `prose is not English (detected "${language || 'unknown'}")` };
  return { ok: true };
}
