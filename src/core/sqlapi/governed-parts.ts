// Where the governed SELECTs of an outer query are. A statement such as
//   SELECT channel, revenue / orders AS per_order
//   FROM (SELECT channel, MEASURE(revenue) AS revenue, MEASURE(order_count) AS orders FROM orders GROUP BY 1) t
//   ORDER BY per_order DESC
// reads the model's tables only inside parenthesized SELECTs (a subquery in FROM, a CTE's body, a scalar
// subquery): each of those is a governed SELECT of its own, answered on the governed path, and the rest
// of the statement is post-processing over their rows. A part is the innermost parenthesized SELECT
// around a model table; one that holds another part is itself the part (and its planning then says what
// it cannot do), so parts never nest.
import { scanSync } from 'libpg-query';
import { charsBefore } from './pg-ast.js';

/** A part's text: between the parentheses, in characters of the statement's text. */
export interface PartSpan {
  readonly from: number;
  readonly to: number;
}

/** The byte spans of the statement's parenthesized SELECTs: from after `(` to before its `)`. */
function subquerySpans(text: string): Array<{ from: number; to: number }> {
  const tokens = scanSync(text).tokens;
  const spans: Array<{ from: number; to: number }> = [];
  const open: number[] = [];
  tokens.forEach((token, index) => {
    if (token.text === '(') open.push(index);
    else if (token.text === ')') {
      const start = open.pop();
      if (start === undefined) return;
      if (tokens[start + 1]?.text.toLowerCase() === 'select') spans.push({ from: tokens[start]!.end, to: token.start });
    }
  });
  return spans;
}

/**
 * The parts of a statement whose model tables are at `modelLocations` (byte offsets of their names), in
 * the order they appear; undefined when a model table is read outside any parenthesized SELECT (the
 * statement is then a governed SELECT itself, or a shape that one refuses).
 */
export function governedParts(text: string, modelLocations: readonly number[]): PartSpan[] | undefined {
  if (modelLocations.length === 0) return undefined;
  const spans = subquerySpans(text);
  const innermost = new Set<{ from: number; to: number }>();
  for (const location of modelLocations) {
    const around = spans.filter((s) => s.from <= location && location < s.to).sort((a, b) => a.to - a.from - (b.to - b.from))[0];
    if (!around) return undefined;
    innermost.add(around);
  }
  const chosen = [...innermost];
  const outermost = chosen.filter((span) => !chosen.some((other) => other !== span && other.from <= span.from && span.to <= other.to));
  return outermost.sort((a, b) => a.from - b.from).map((span) => ({ from: charsBefore(text, span.from), to: charsBefore(text, span.to) }));
}
