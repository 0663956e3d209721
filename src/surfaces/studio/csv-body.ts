// The body of a streamed CSV answer: text pushed in as the rows are read, with back-pressure both
// ways. write() resolves once the HTTP answer has room for more (so the driver reads its next batch
// only then, and memory stays at about a batch), and rejects once the answer is gone (the client
// closed the connection), which stops the run.
import { Readable } from 'node:stream';

export class CsvBody extends Readable {
  private waiting: { resolve: () => void; reject: (error: Error) => void } | undefined;

  constructor() {
    super();
    // A run that fails destroys the body with its error, maybe before the answer reads it: the error
    // is the run's (answered or cut by the route), not one for the process.
    this.on('error', () => undefined);
  }

  /** Queues `text`; the promise settles when more may be written. */
  write(text: string): Promise<void> {
    if (this.destroyed) return Promise.reject(new Error('the answer was closed before the file was whole'));
    if (this.push(text)) return Promise.resolve();
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  override _read(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error ?? new Error('the answer was closed before the file was whole'));
    callback(error);
  }
}
