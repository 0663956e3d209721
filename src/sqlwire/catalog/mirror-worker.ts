// The thread a catalog mirror's PostgreSQL runs in. PGlite runs PostgreSQL synchronously on the thread
// that calls it: on the service's own thread, a catalog query that runs long (a cross join of
// pg_attribute, pg_sleep) would stop every request of the process, and PGlite cannot cancel it
// (statement_timeout needs signals it does not have). Here it stops only this thread, which the mirror
// terminates when a statement outlives its time.
//
// The thread starts PostgreSQL from a data directory (or runs initdb when given none), runs the setup
// scripts, then either sends back its data directory (the template every mirror starts from) or
// answers protocol messages: bytes in, PostgreSQL's bytes out.
//
// Node runs this file as it is (type stripping) from the sources and compiled from dist: it imports
// packages only, and no syntax that needs compiling.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/** Compiled WebAssembly, as PGlite takes it (named through PGlite: the build's type libraries lack WebAssembly's). */
export type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;

export interface MirrorWorkerData {
  readonly pgliteWasm: WasmModule;
  readonly initdbWasm: WasmModule;
  /** The data directory to start from (a tarball); without it initdb creates one. */
  readonly dataDir?: Blob;
  readonly startParams: readonly string[];
  readonly initdbParams: readonly string[];
  /** Scripts run once, in order, each as one simple query (statements that refuse a transaction block go alone). */
  readonly setup: readonly string[];
  /** Send the data directory back and stop, instead of answering messages. */
  readonly dump: boolean;
  /** When dumping: a query whose one text value is sent back with the data directory (catalog-facts.ts). */
  readonly factsSql?: string;
}

/** A message to the thread: protocol bytes to run. */
export interface MirrorRequest {
  readonly id: number;
  readonly bytes: Uint8Array;
}

/** What the thread says: ready (with the data directory when dumping), or the answer to a request. */
export type MirrorReply =
  | { readonly kind: 'ready'; readonly heapBytes: number; readonly dataDir?: Blob; readonly facts?: string }
  | { readonly kind: 'answer'; readonly id: number; readonly bytes: Uint8Array; readonly heapBytes: number }
  | { readonly kind: 'failed'; readonly id?: number; readonly message: string };

const port = parentPort!;
const data = workerData as MirrorWorkerData;

async function main(): Promise<void> {
  const pg = await PGlite.create({
    pgliteWasmModule: data.pgliteWasm,
    initdbWasmModule: data.initdbWasm,
    startParams: [...data.startParams],
    initDbStartParams: [...data.initdbParams],
    ...(data.dataDir ? { loadDataDir: data.dataDir } : {}),
  });
  for (const script of data.setup) await pg.exec(script);
  // The WebAssembly memory only grows: its size says what a statement made PostgreSQL allocate.
  const heapBytes = () => pg.Module.HEAPU8.byteLength;
  if (data.dump) {
    const facts = data.factsSql ? String((await pg.query<unknown[]>(data.factsSql, [], { rowMode: 'array' })).rows[0]?.[0]) : undefined;
    const dataDir = await pg.dumpDataDir('none');
    const ready = { kind: 'ready', heapBytes: heapBytes(), dataDir, ...(facts === undefined ? {} : { facts }) } satisfies MirrorReply;
    await pg.close();
    port.postMessage(ready);
    return;
  }
  port.on('message', (request: MirrorRequest) => {
    pg.execProtocolRaw(request.bytes, { syncToFs: false }).then(
      (answer) => {
        // PGlite answers with a view of its own buffer: copied, so that it can move to the other thread.
        const bytes = answer.slice();
        port.postMessage({ kind: 'answer', id: request.id, bytes, heapBytes: heapBytes() } satisfies MirrorReply, [bytes.buffer]);
      },
      (error: unknown) => port.postMessage({ kind: 'failed', id: request.id, message: String(error) } satisfies MirrorReply),
    );
  });
  port.postMessage({ kind: 'ready', heapBytes: heapBytes() } satisfies MirrorReply);
}

main().catch((error: unknown) => port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies MirrorReply));
