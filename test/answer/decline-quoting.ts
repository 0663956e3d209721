// What a decline may quote: a person reads double quotes in a refusal as their own words, so every
// phrase between double quotes must be in the question as asked (case aside).

/** The phrases of `text` between straight or curly double quotes. */
export function quotedPhrases(text: string): string[] {
  return [...text.matchAll(/["“]([^"”]*)["”]/g)].map((match) => match[1]!);
}

/** The quoted phrases of `reason` that the question does not contain. */
export function quotesNotInQuestion(reason: string, question: string): string[] {
  const asked = question.toLowerCase();
  return quotedPhrases(reason).filter((phrase) => !asked.includes(phrase.toLowerCase()));
}
