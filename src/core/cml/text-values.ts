// Small text helpers of the lexer: building SQL chunks, string escapes and triple-quote dedenting.
import type { SqlChunk } from './ast.js';

export function pushText(chunks: SqlChunk[], text: string): void {
  if (text.length > 0) chunks.push({ kind: 'text', text });
}

/** Triple-quoted SQL keeps its inner text verbatim except the blank space around the whole value. */
export function trimChunks(chunks: SqlChunk[]): SqlChunk[] {
  const first = chunks[0];
  if (first?.kind === 'text') chunks[0] = { kind: 'text', text: first.text.trimStart() };
  const last = chunks[chunks.length - 1];
  if (last?.kind === 'text') chunks[chunks.length - 1] = { kind: 'text', text: last.text.trimEnd() };
  return chunks.filter((c) => c.kind !== 'text' || c.text.length > 0);
}

export function unescape(char: string): string {
  if (char === 'n') return '\n';
  if (char === 't') return '\t';
  if (char === '"' || char === '\\') return char;
  return `\\${char}`;
}

/** Triple-quoted text: drop the blank first and last lines and the indentation common to the rest. */
export function dedent(raw: string): string {
  const lines = raw.replace(/\r/g, '').split('\n');
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  let indent = Infinity;
  for (const line of lines) if (line.trim() !== '') indent = Math.min(indent, line.length - line.trimStart().length);
  if (!Number.isFinite(indent)) indent = 0;
  return lines.map((line) => line.slice(indent).trimEnd()).join('\n');
}
