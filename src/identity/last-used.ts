// Keeps `last_used_at` of API keys (and OAuth grants) without a database write per request: uses are
// gathered in memory and written in one batch every few seconds (and at shutdown).

/** Where a recorder writes its batches: the keys' table, or the OAuth grants'. */
export interface LastUsedStore {
  recordLastUsed(entries: ReadonlyMap<string, Date>): Promise<void>;
}

export class LastUsedRecorder {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly keys: LastUsedStore,
    private readonly intervalMs = 10_000,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  touch(keyId: string, at: Date): void {
    this.pending.set(keyId, at);
  }

  /** A use not yet written, so that listings are exact on this instance. */
  unwritten(keyId: string): Date | undefined {
    return this.pending.get(keyId);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.keys.recordLastUsed(batch);
      } catch (error) {
        // Put the batch back (newer uses win) so nothing is lost; the next flush retries.
        for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
        this.onError(error);
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
