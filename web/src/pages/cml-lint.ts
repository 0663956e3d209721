// CML validation as you type: the server validates the whole project with the edited file in it, and the
// diagnostics of that file are underlined at their line and column.
import { linter, type Diagnostic as EditorDiagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import { post } from '../api';

export interface CmlDiagnostic {
  file: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  code: string;
  severity: 'error' | 'warning';
  message: string;
}

export interface CmlFile {
  path: string;
  content: string;
}

/** A 1-based line and column as an offset into the document, kept inside it. */
export function offsetOf(doc: Text, line: number, column: number): number {
  const at = doc.line(Math.min(Math.max(1, line), doc.lines));
  return Math.min(at.to, at.from + Math.max(0, column - 1));
}

export function toEditorDiagnostics(doc: Text, file: string, diagnostics: CmlDiagnostic[]): EditorDiagnostic[] {
  return diagnostics
    .filter((d) => d.file === file)
    .map((d) => {
      const from = offsetOf(doc, d.line, d.column);
      const to = Math.max(from, offsetOf(doc, d.end_line, d.end_column));
      return { from, to: to === from ? Math.min(doc.length, from + 1) : to, severity: d.severity, message: `${d.code}: ${d.message}`, source: 'cml' };
    });
}

/** A linter over POST /api/model/validate; `onResult` also receives the list, to show it beside the editor. */
export function cmlLinter(project: string, file: string, otherFiles: () => CmlFile[], onResult: (diagnostics: CmlDiagnostic[] | Error) => void) {
  return linter(
    async (view) => {
      const content = view.state.doc.toString();
      try {
        const files = [...otherFiles().filter((f) => f.path !== file), { path: file, content }];
        const result = await post<{ valid: boolean; diagnostics: CmlDiagnostic[] }>('/api/model/validate', { project, files });
        onResult(result.diagnostics);
        return toEditorDiagnostics(view.state.doc, file, result.diagnostics);
      } catch (error) {
        onResult(error as Error);
        return [];
      }
    },
    { delay: 400 },
  );
}
