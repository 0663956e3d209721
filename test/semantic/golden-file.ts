// A golden file: text reviewed once and kept in the repository, which the output must keep matching.
// A missing file is a failure like a changed one: writing it from the output under test would make the
// test pass while checking nothing. UPDATE_GOLDEN=1 (re)writes files after an intended change, for review.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const UPDATING_GOLDEN = process.env.UPDATE_GOLDEN === '1';

/** The file's text to compare `actual` with; throws when it is missing and not being updated. */
export function goldenText(file: string, actual: string, update = UPDATING_GOLDEN): string {
  if (update) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
  } else if (!existsSync(file)) {
    throw new Error(
      `Golden file ${path.relative(process.cwd(), file)} is missing. Review the output below; if it is right, write the file with ` +
        `UPDATE_GOLDEN=1 npx vitest run ${path.relative(process.cwd(), path.join(import.meta.dirname, 'golden.test.ts'))} and commit it.\n${actual}`,
    );
  }
  return readFileSync(file, 'utf8');
}
