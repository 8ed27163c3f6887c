import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The thread's whole program. Plain CommonJS so that it runs the same under tsx, node and vitest.
 * PASSIVE never waits for readers or writers: it copies what it can and leaves the rest.
 *
 * SQLite starts the WAL over, at its beginning, only when a write begins with every frame copied.
 * A writer that never pauses (a run of creates) always leaves some frames behind a PASSIVE
 * checkpoint, and the WAL then grew to the writer's automatic checkpoint (400 MB), where a commit
 * stalled 50–90 ms. Once the WAL is long, a RESTART right after the PASSIVE copies the few frames
 * written meanwhile, holding writers back for that long only, and the WAL starts over.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const run = () => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    if (passive && passive.log >= workerData.restartFrames) {
      db.pragma('busy_timeout = ' + workerData.restartWaitMs);
      try { db.pragma('wal_checkpoint(RESTART)'); } finally { db.pragma('busy_timeout = 0'); }
    }
  } catch { /* busy: next turn */ }
};
const timer = setInterval(run, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'stop') { clearInterval(timer); run(); db.close(); parentPort.postMessage('stopped'); }
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Checkpoints a WAL database from a thread of its own. A checkpoint copies the WAL's pages into the
 * database file and fsyncs it; left to SQLite's automatic checkpoint it runs inside whichever
 * commit crosses the threshold, on the event loop that also serves requests.
 *
 * @example
 * const cp = startCheckpointer('data/idv.sqlite');
 * // … on close:
 * await cp.stop();
 */
export function startCheckpointer(
  path: string,
  intervalMs = 250,
  {
    restartFrames = 4096,
    restartWaitMs = 20,
  }: { restartFrames?: number; restartWaitMs?: number } = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, driver, intervalMs, restartFrames, restartWaitMs },
  });
  // The thread must never keep the process alive on its own.
  worker.unref();
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        const done = () => {
          void worker.terminate().finally(resolve);
        };
        worker.once('message', done);
        worker.once('error', done);
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      });
      return stopped;
    },
  };
}
