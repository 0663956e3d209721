// The timer loop under the background workers that poll the store (the job runner, the signal scheduler):
// a tick, then a pause of pollMs from its end, so a slow tick never overlaps the next. Stopping aborts
// `stopping` for a tick that checks it between steps, and waits for the tick in progress.

export interface PollLoopOptions {
  pollMs: number;
  onError?: (error: unknown) => void;
}

export class PollLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  private aborter = new AbortController();

  constructor(
    private readonly tick: (stopping: AbortSignal) => Promise<unknown>,
    private readonly options: PollLoopOptions,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.aborter = new AbortController();
    this.schedule(0);
  }

  /** Stops polling, aborts the tick in progress at its next check, and waits for it. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.aborter.abort();
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick(this.aborter.signal)
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.pollMs);
        });
    }, delay);
    // A worker's timer never keeps the process alive on its own.
    this.timer.unref();
  }
}
