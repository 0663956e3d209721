// Collects what would end a real process: uncaught exceptions (an 'error' event nobody listens to is
// thrown as one) and unhandled rejections. A test asserts the list is empty; without this, such an error
// fails the run only as a side note, after the test that caused it passed.
import { afterAll, beforeAll } from 'vitest';

export function watchUncaught(): { drain(): string[] } {
  const seen: string[] = [];
  const record = (error: unknown) => seen.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  beforeAll(() => {
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
  });
  afterAll(() => {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  });
  return { drain: () => seen.splice(0, seen.length) };
}
