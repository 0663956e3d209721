// CML, the modelling language: source files in, a linked SemanticModel and diagnostics out.
// See CONTEXT.md for the design and docs/cml.md for the language itself.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SemanticModel } from '../semantic/model.js';
import { DiagnosticSink, type Diagnostic } from './diagnostics.js';
import { link } from './linker.js';
import { parseDocument } from './parser.js';

export { DIAGNOSTIC_CODES, formatDiagnostic, sortDiagnostics, type Diagnostic, type DiagnosticCode, type Severity } from './diagnostics.js';

export interface CmlFile {
  /** How diagnostics name the file (relative to the model directory when read from one). */
  path: string;
  content: string;
}

export interface CompileResult {
  /** Undefined exactly when some diagnostic is an error. */
  model: SemanticModel | undefined;
  /** Sorted by file and position. */
  diagnostics: Diagnostic[];
}

export function compileModel(files: CmlFile[]): CompileResult {
  const sink = new DiagnosticSink();
  const documents = files.map((file) => parseDocument(file.path, withoutNul(file, sink), sink));
  const model = link(documents, sink);
  return { model: sink.hasErrors ? undefined : model, diagnostics: sink.sorted() };
}

/** Reads every `*.cml` under `dir` (recursively, in a stable order) and compiles them together. */
export async function validateDirectory(dir: string): Promise<CompileResult & { files: CmlFile[] }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.cml'))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
  const files = await Promise.all(paths.map(async (p) => ({ path: p, content: await readFile(path.join(dir, p), 'utf8') })));
  return { files, ...compileModel(files) };
}

/**
 * NUL is an error anywhere in a file, comments and strings included: no model store can keep it in
 * text. Each is reported and read as a space, so the rest of the file is still checked.
 */
function withoutNul(file: CmlFile, sink: DiagnosticSink): string {
  if (!file.content.includes('\u0000')) return file.content;
  const lines = file.content.split('\n');
  lines.forEach((text, index) => {
    for (let column = text.indexOf('\u0000'); column >= 0; column = text.indexOf('\u0000', column + 1)) {
      const span = { file: file.path, line: index + 1, column: column + 1, endLine: index + 1, endColumn: column + 2 };
      sink.report('CML001', span, 'unexpected character U+0000 (NUL): it is not allowed anywhere in a CML file');
    }
  });
  return file.content.replaceAll('\u0000', ' ');
}
