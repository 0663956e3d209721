// Typo tolerance for question words that the catalog does not know ("reveneu", "custmers", "chanel").
// Only words of five letters or more are corrected: short words are too often a different real word
// ("rate" / "date"), and a wrong correction turns an honest "no match" into a confident wrong answer.

export const MIN_TYPO_LENGTH = 5;
const MIN_TRIGRAM_DICE = 0.55;

function trigrams(word: string): string[] {
  const padded = `  ${word} `;
  const grams: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) grams.push(padded.slice(i, i + 3));
  return grams;
}

/** Dice coefficient of the two words' padded character trigrams, 0..1. */
export function trigramDice(a: string, b: string): number {
  const left = trigrams(a);
  const right = new Map<string, number>();
  for (const gram of trigrams(b)) right.set(gram, (right.get(gram) ?? 0) + 1);
  let shared = 0;
  for (const gram of left) {
    const count = right.get(gram) ?? 0;
    if (count > 0) {
      shared++;
      right.set(gram, count - 1);
    }
  }
  return (2 * shared) / (left.length + trigrams(b).length);
}

/** Edit distance where swapping two neighbouring letters counts once ("reveneu" → "revenue" is 1). */
export function transpositionDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The vocabulary word `word` is most plausibly a typo of, or undefined. Accepted when the trigrams
 * largely agree or the words are one edit apart (two for long words).
 */
export function closestWord(word: string, vocabulary: Iterable<string>): string | undefined {
  const maxEdits = word.length >= 8 ? 2 : 1;
  let best: { word: string; edits: number; dice: number } | undefined;
  for (const candidate of vocabulary) {
    if (Math.abs(candidate.length - word.length) > 2) continue;
    const edits = transpositionDistance(word, candidate);
    const dice = trigramDice(word, candidate);
    if (edits > maxEdits && dice < MIN_TRIGRAM_DICE) continue;
    if (!best || edits < best.edits || (edits === best.edits && dice > best.dice)) best = { word: candidate, edits, dice };
  }
  return best?.word;
}
