// Where in the statement an engine error points, when its message says: DuckDB and PostgreSQL quote
// "LINE n:" with a caret line under it, MySQL says "at line n", others "line n, column m" / "position p".
export interface ErrorPosition {
  line: number;
  column?: number;
}

export function errorPosition(message: string): ErrorPosition | undefined {
  const lineCol = /line (\d+)[,:]? (?:at )?(?:column|col\.?|position) (\d+)/i.exec(message);
  if (lineCol) return { line: Number(lineCol[1]), column: Number(lineCol[2]) };
  const caret = /LINE (\d+): (.*)\n( *)\^/.exec(message);
  if (caret) return { line: Number(caret[1]), column: caret[3]!.length - `LINE ${caret[1]}: `.length + 1 };
  const line = /\b(?:at )?line (\d+)/i.exec(message);
  if (line) return { line: Number(line[1]) };
  return undefined;
}
