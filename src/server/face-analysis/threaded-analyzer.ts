import { Worker } from 'node:worker_threads';
import type { AnalyzeOptions, FaceAnalyzer, FrameAnalysis } from './analyzer';
import type { HumanAnalyzerOptions } from './human-analyzer';
import { ImageDecodeError } from './image';

/**
 * The thread's whole program, plain CommonJS as the store's threads are. The analyzer is
 * TypeScript, so the thread registers tsx itself: loader hooks registered on the main thread
 * (`bin/idv.mjs`, vitest's transform) do not reach a worker. Requests run in the order they
 * arrive: `createHumanAnalyzer` queues them, its backend being single-threaded.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const analyzer = import(workerData.tsx)
  .then((tsx) => { tsx.register(); return import(workerData.module); })
  .then((m) => m.createHumanAnalyzer(workerData.options));
const failure = (e) => ({
  name: String((e && e.name) || 'Error'),
  message: String((e && e.message) || e),
  stack: e && e.stack,
});
parentPort.on('message', async (m) => {
  try {
    const a = await analyzer;
    const result = m.image ? await a.analyze(m.image, m.options) : await a.load();
    parentPort.postMessage({ id: m.id, result });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: failure(e) });
  }
});
`;

type Failure = { name: string; message: string; stack?: string };
type Reply = { id: number; result?: FrameAnalysis; error?: Failure };

interface Call {
  resolve: (r: FrameAnalysis | undefined) => void;
  reject: (e: Error) => void;
  done: Promise<unknown>;
}

/** One running thread and the calls it has not answered. */
interface Thread {
  worker: Worker;
  calls: Map<number, Call>;
}

export interface ThreadedAnalyzerOptions extends HumanAnalyzerOptions {
  /**
   * URL of the module whose `createHumanAnalyzer(options)` runs on the thread; default
   * `human-analyzer.ts`. Tests give one that can crash the thread.
   */
  module?: string;
}

/** An error as the thread sent it, as the class the callers test for (`ImageDecodeError`). */
function errorOf(f: Failure): Error {
  const err =
    f.name === 'ImageDecodeError' ? new ImageDecodeError(f.message) : new Error(f.message);
  if (f.stack) err.stack = `${err.name}: ${f.message}\n  on the face analysis thread:\n${f.stack}`;
  return err;
}

/**
 * The `human` analyzer on a thread of its own. tfjs on the wasm backend holds the thread it runs
 * on for the whole of a frame (~0.5 s on a loaded machine); on the event loop that stopped every
 * request, timer and job lease meanwhile. One thread per analyzer, started on first use (most
 * processes never analyse a face) and loading the models once; a thread that dies fails the calls
 * it held and is started again on the next call.
 *
 * @example
 * const analyzer = createThreadedAnalyzer();
 * const frame = await analyzer.analyze(jpegBytes); // the event loop stays free meanwhile
 * await analyzer.close();
 */
export function createThreadedAnalyzer(opts: ThreadedAnalyzerOptions = {}): FaceAnalyzer {
  const { module = new URL('./human-analyzer.ts', import.meta.url).href, ...options } = opts;
  let thread: Thread | null = null;
  let nextId = 1;

  const start = (): Thread => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { tsx: import.meta.resolve('tsx/esm/api'), module, options },
    });
    const t: Thread = { worker, calls: new Map() };
    // Idle, the thread must not keep the process alive; with calls in flight it must.
    worker.unref();
    worker.on('message', (m: Reply) => {
      const call = t.calls.get(m.id);
      if (!call) return;
      t.calls.delete(m.id);
      if (t.calls.size === 0) worker.unref();
      if (m.error) call.reject(errorOf(m.error));
      else call.resolve(m.result);
    });
    const gone = (err: Error) => {
      if (thread === t) thread = null;
      for (const call of t.calls.values()) call.reject(err);
      t.calls.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) =>
      gone(new Error(`the face analysis thread stopped (exit code ${code})`)),
    );
    return t;
  };

  const call = (
    image: Uint8Array | null,
    options: AnalyzeOptions = {},
  ): Promise<FrameAnalysis | undefined> => {
    const t = (thread ??= start());
    const id = nextId++;
    // The callers keep using their bytes (they decode them again, store them), so the thread gets
    // a copy of exactly the frame, moved rather than cloned: a clone of a Buffer's view copies
    // the whole pool it sits in, and copies it twice.
    const copy = image ? new Uint8Array(image) : null;
    let settle!: Pick<Call, 'resolve' | 'reject'>;
    const done = new Promise<FrameAnalysis | undefined>((resolve, reject) => {
      settle = { resolve, reject };
    });
    t.calls.set(id, { ...settle, done });
    t.worker.ref();
    t.worker.postMessage({ id, image: copy, options }, copy ? [copy.buffer] : []);
    return done;
  };

  return {
    async load() {
      await call(null);
    },
    async analyze(image, options) {
      return (await call(image, options))!;
    },
    async close() {
      const t = thread;
      if (!t) return;
      thread = null;
      // What was asked is answered first, as the in-process analyzer's close does.
      await Promise.allSettled([...t.calls.values()].map((c) => c.done));
      await t.worker.terminate();
    },
  };
}
