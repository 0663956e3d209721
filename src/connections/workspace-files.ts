// Each workspace's own directory for DuckDB files: <data dir>/workspaces/<workspace id>/. The data
// directory also holds the secret key, the TLS key and the metadata store, and every workspace shares
// it: a DuckDB path is therefore relative to the workspace's directory and must stay inside it.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { BadRequestError } from '../core/errors.js';
import { normalisedPath, pathSyntaxProblem, resolveConfined, type PathSyntaxProblem } from '../core/warehouse/duckdb-path.js';

/** Sub-directory of the data directory that holds one directory per workspace. */
export const WORKSPACES_DIR = 'workspaces';

const WORKSPACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SYNTAX_MESSAGES: Record<PathSyntaxProblem, string> = {
  empty: 'DuckDB settings.path must name a file',
  absolute: "DuckDB settings.path must be relative to the workspace's directory, not absolute",
  parent: 'DuckDB settings.path must not contain ".."',
  'control-character': 'DuckDB settings.path must not contain control characters',
};

/** The directory of a workspace's DuckDB files (not created). */
export function workspaceDirectory(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, WORKSPACES_DIR, checkedWorkspaceId(workspaceId));
}

/** A workspace id fit to name a directory, lower case. */
export function checkedWorkspaceId(workspaceId: string): string {
  // Ids come from the store; the check keeps a malformed one from ever naming another directory.
  if (!WORKSPACE_ID.test(workspaceId)) throw new Error('A workspace id is a UUID');
  return workspaceId.toLowerCase();
}

/**
 * Checks a DuckDB path a user gives for their workspace and returns its tidy relative spelling. The
 * file may not exist yet (it can be copied in later); a path or link leading out is refused with the
 * same words whatever lies outside, and no answer names a server directory.
 */
export function checkDuckDbPath(directory: string, given: string): string {
  const problem = pathSyntaxProblem(given);
  if (problem) throw invalid(SYNTAX_MESSAGES[problem]);
  const relative = normalisedPath(given);
  // Created here so that an operator has somewhere to put the file.
  mkdirSync(directory, { recursive: true });
  const found = resolveConfined(directory, relative);
  switch (found.kind) {
    case 'outside':
      throw invalid("DuckDB settings.path leads outside the workspace's directory (through a symbolic link)");
    case 'too-many-links':
      throw invalid('DuckDB settings.path goes through too many symbolic links');
    case 'not-a-file':
      throw invalid('DuckDB settings.path names a directory, not a file');
    case 'missing':
    case 'file':
      return relative;
  }
}

function invalid(message: string): BadRequestError {
  return new BadRequestError(message, 'invalid_connection');
}
