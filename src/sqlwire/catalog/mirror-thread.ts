// The service's side of a mirror's thread (mirror-worker.ts): starting one, sending it protocol bytes
// with a time limit, and stopping it. A statement that outlives its limit stops the thread (the only
// way to stop PostgreSQL inside it), and answers as PostgreSQL's statement_timeout would.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { CATALOG_SQLSTATE, CatalogError } from './catalog-error.js';
import { MIRROR_INITDB_PARAMS, MIRROR_START_PARAMS } from './mirror-setup.js';
import type { MirrorReply, MirrorRequest, MirrorWorkerData, WasmModule } from './mirror-worker.js';

/** PostgreSQL's compiled WebAssembly, compiled once and shared by every thread (V8 shares the code). */
export interface PgliteWasm {
  readonly pglite: WasmModule;
  readonly initdb: WasmModule;
}

// The WebAssembly global exists at run time; this project's type libraries only declare its types.
const wasmCompiler = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly;

export async function compilePgliteWasm(): Promise<PgliteWasm> {
  const require = createRequire(import.meta.url);
  const compile = async (file: string) => wasmCompiler.compile(await readFile(require.resolve(`@electric-sql/pglite/${file}`)));
  const [pglite, initdb] = await Promise.all([compile('pglite.wasm'), compile('initdb.wasm')]);
  return { pglite, initdb };
}

// Sources run the worker as TypeScript (Node strips the types), the build as the compiled file. A Node
// that cannot strip types (before 22.18, where the sources run through tsx) starts a worker that
// registers tsx and then imports it: a worker's entry itself bypasses loader hooks there.
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './mirror-worker.ts' : './mirror-worker.js', import.meta.url);
const WORKER_ENTRY: { readonly entry: URL | string; readonly eval: boolean } =
  WORKER_URL.pathname.endsWith('.ts') && !(process.features as { typescript?: unknown }).typescript
    ? { entry: `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); })`, eval: true }
    : { entry: WORKER_URL, eval: false };

/**
 * A thread's own JavaScript heap: PGlite's file system (the data directory) is counted outside it, as
 * is PostgreSQL's memory; this only stops a thread whose JavaScript runs away.
 */
const WORKER_HEAP_MB = 128;

interface Pending {
  readonly resolve: (answer: { bytes: Uint8Array; heapBytes: number }) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export class MirrorThread {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stopped?: CatalogError;

  private constructor(
    private readonly worker: Worker,
    /** The size of PostgreSQL's memory when the thread was ready. */
    readonly startHeapBytes: number,
  ) {
    worker.on('message', (reply: MirrorReply) => this.settle(reply));
    worker.on('error', (error) => this.stop(new CatalogError(CATALOG_SQLSTATE.INTERNAL_ERROR, `the catalog mirror failed: ${error.message}`)));
    worker.on('exit', () => this.stop(new CatalogError(CATALOG_SQLSTATE.INTERNAL_ERROR, 'the catalog mirror stopped')));
  }

  /** A thread answering messages, started from `dataDir` and set up with `setup`. */
  static async start(wasm: PgliteWasm, dataDir: Blob, setup: readonly string[]): Promise<MirrorThread> {
    const { worker, ready } = await spawn({ pgliteWasm: wasm.pglite, initdbWasm: wasm.initdb, dataDir, startParams: MIRROR_START_PARAMS, initdbParams: MIRROR_INITDB_PARAMS, setup, dump: false });
    return new MirrorThread(worker, ready.heapBytes);
  }

  /** Protocol bytes in, PostgreSQL's answer out; past `timeoutMs` the thread is stopped. */
  exec(bytes: Uint8Array, timeoutMs: number): Promise<{ bytes: Uint8Array; heapBytes: number }> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new CatalogError(CATALOG_SQLSTATE.QUERY_CANCELED, 'canceling statement due to statement timeout'));
        void this.terminate();
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.worker.postMessage({ id, bytes } satisfies MirrorRequest, [bytes.buffer as ArrayBuffer]);
    });
  }

  get alive(): boolean {
    return !this.stopped;
  }

  async terminate(): Promise<void> {
    this.stop(new CatalogError(CATALOG_SQLSTATE.ADMIN_SHUTDOWN, 'terminating connection due to administrator command'));
    await this.worker.terminate();
  }

  private settle(reply: MirrorReply): void {
    if (reply.kind === 'ready') return;
    const pending = reply.id === undefined ? undefined : this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id!);
    clearTimeout(pending.timer);
    if (reply.kind === 'answer') pending.resolve({ bytes: reply.bytes, heapBytes: reply.heapBytes });
    else pending.reject(new CatalogError(CATALOG_SQLSTATE.INTERNAL_ERROR, `the catalog mirror failed: ${reply.message}`));
  }

  private stop(reason: CatalogError): void {
    this.stopped ??= reason;
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(this.stopped);
    }
    this.pending.clear();
  }
}

/**
 * The data directory every mirror starts from (initdb, then `setup`, in a thread of its own), and the
 * one text value `factsSql` answers on it.
 */
export async function buildTemplate(wasm: PgliteWasm, setup: readonly string[], factsSql: string): Promise<{ dataDir: Blob; facts: string }> {
  const { worker, ready } = await spawn({ pgliteWasm: wasm.pglite, initdbWasm: wasm.initdb, startParams: MIRROR_START_PARAMS, initdbParams: MIRROR_INITDB_PARAMS, setup, dump: true, factsSql });
  await worker.terminate();
  return { dataDir: ready.dataDir!, facts: ready.facts ?? '' };
}

type Ready = Extract<MirrorReply, { kind: 'ready' }>;

function spawn(data: MirrorWorkerData): Promise<{ worker: Worker; ready: Ready }> {
  const worker = new Worker(WORKER_ENTRY.entry, { eval: WORKER_ENTRY.eval, workerData: data, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      void worker.terminate();
      reject(new CatalogError(CATALOG_SQLSTATE.INTERNAL_ERROR, `the catalog mirror could not start: ${message}`));
    };
    const onMessage = (reply: MirrorReply) => {
      worker.off('error', onError).off('exit', onExit);
      if (reply.kind === 'ready') resolve({ worker, ready: reply });
      else fail(reply.kind === 'failed' ? reply.message : 'unexpected answer');
    };
    const onError = (error: Error) => fail(error.message);
    const onExit = (code: number) => fail(`its thread exited (${code})`);
    worker.once('message', onMessage).once('error', onError).once('exit', onExit);
  });
}
