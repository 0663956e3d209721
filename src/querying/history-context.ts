// Who a run is recorded for when it is made through a channel that sits on top of the other surfaces.
// An MCP tool call reaches the question pipeline, scene runs and raw SQL, which record their runs deep
// inside (the answer service's governed and fallback queries, a scene's compiled query). Rather than
// thread a surface through every one of those signatures, the call runs inside a history context and
// the one place that records runs (RawSqlService) reads it: the run keeps its origin (what asked for
// it: `structured`, `question`, `scene:<id>`…) and is recorded under the context's surface and key.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HistorySurface } from '../store/schema.js';

export interface HistoryContext {
  readonly surface: HistorySurface;
  /** The API key the runs are made with. */
  readonly keyId: string | null;
}

const context = new AsyncLocalStorage<HistoryContext>();

/** Runs `work` with every query run inside it recorded under `recordAs`. */
export function recordRunsAs<T>(recordAs: HistoryContext, work: () => Promise<T>): Promise<T> {
  return context.run(recordAs, work);
}

/** The context of the current call, if it runs inside one. */
export function currentHistoryContext(): HistoryContext | undefined {
  return context.getStore();
}
