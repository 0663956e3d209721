// Query history rows are written in batches, off the requests that produce them: a run adds its row
// to a buffer, which is written in one statement every `flushMs` or as soon as it holds `maxRows`.
// Reads of the history write the buffer first, so a run is listed as soon as it has finished; closing
// writes what is left, so a graceful shutdown loses nothing (a crash loses at most `flushMs` of rows).
import type { HistoryEntry, HistoryPage, HistoryFilter, HistoryRepo } from './history-repo.js';

export interface HistoryWriterOptions {
  flushMs: number;
  maxRows: number;
  /** A batch that could not be written: logged, never turned into a failed answer. */
  onError?: (error: unknown) => void;
}

export class HistoryWriter {
  private buffer: HistoryEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly repo: HistoryRepo,
    private readonly options: HistoryWriterOptions,
  ) {}

  /** Buffers a run's row; it is written within `flushMs`. */
  add(entry: HistoryEntry): void {
    this.buffer.push(entry);
    if (this.buffer.length >= this.options.maxRows) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs).unref();
  }

  /** Adds a row and writes it at once, with whatever else is buffered. */
  async insert(entry: HistoryEntry): Promise<void> {
    this.buffer.push(entry);
    await this.flush();
  }

  /** Writes what is buffered and waits for every write under way (a failed one was reported). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length > 0) {
      const batch = this.buffer;
      this.buffer = [];
      const write = this.repo
        .insertMany(batch)
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => this.writing.delete(write));
      this.writing.add(write);
    }
    await Promise.all([...this.writing]);
  }

  /** A page of a user's runs, newest first, runs just finished included. */
  async pageForUser(workspaceId: string, userId: string, page: HistoryPage) {
    await this.flush();
    return this.repo.pageForUser(workspaceId, userId, page);
  }

  /** A page of every run of the workspace, newest first, runs just finished included. */
  async pageForWorkspace(workspaceId: string, page: HistoryPage & HistoryFilter) {
    await this.flush();
    return this.repo.pageForWorkspace(workspaceId, page);
  }
}
