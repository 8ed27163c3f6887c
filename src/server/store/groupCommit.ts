import type { CreateRows, CreateWriter } from './createWriter';

/**
 * Create batches on the writer thread at once: one being written while the next is queued, so
 * neither the event loop nor the thread waits for the other; more would only make batches smaller.
 */
const BATCHES_IN_FLIGHT = 2;

interface PendingCreate {
  rows: CreateRows;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** New sessions' rows, committed in groups. */
export interface GroupCommit {
  /** Resolves once the create is committed; rejects when it was not (and nothing of it is kept). */
  write(rows: CreateRows): Promise<void>;
  /** Until every create handed over has settled. */
  drain(): Promise<void>;
  /** Drains, then stops the writer thread. */
  stop(): Promise<void>;
}

export interface GroupCommitOptions {
  /** Inserts creates in one transaction on the store's own connection. */
  insert: (items: CreateRows[]) => void;
  /** Starts the writer thread on the first create; null writes on the caller's thread. */
  startWriter: (() => CreateWriter) | null;
}

/**
 * Group commit: creates arriving in the same turn of the event loop share one transaction (one
 * WAL append), on the create writer's thread when there is one. With two batches on the thread
 * the next one gathers, so the busier the server the larger the batches. Should any row of a
 * batch fail, the batch is rolled back and each create is retried in a transaction of its own, so
 * one bad create fails only itself; per-row savepoints would cost every create for a case that
 * almost never happens. Every promise settles after the commit, so nothing is acknowledged before
 * it is written.
 *
 * @example
 * const commit = groupCommit({ insert: (items) => insertAll(items), startWriter: null });
 * await commit.write(createRows(session, secret, flow, eventId));
 */
export function groupCommit(opts: GroupCommitOptions): GroupCommit {
  let pending: PendingCreate[] = [];
  let flushScheduled = false;
  /** Batches handed to the writer thread and not yet answered. */
  const writing = new Set<Promise<void>>();
  let writer: CreateWriter | null = null;
  let writerGone = false;

  const startedWriter = (): CreateWriter | null => {
    if (writer || writerGone || !opts.startWriter) return writer;
    try {
      writer = opts.startWriter();
    } catch {
      writerGone = true;
    }
    return writer;
  };

  const insertInline = (batch: PendingCreate[]) => {
    try {
      opts.insert(batch.map((b) => b.rows));
      for (const item of batch) item.resolve();
    } catch {
      for (const item of batch) {
        try {
          opts.insert([item.rows]);
          item.resolve();
        } catch (err) {
          item.reject(err ?? new Error('create failed'));
        }
      }
    }
  };

  const flush = (): void => {
    flushScheduled = false;
    const batch = pending;
    if (batch.length === 0) return;
    pending = [];
    const thread = startedWriter();
    if (!thread) {
      insertInline(batch);
      return;
    }
    const written = thread.write(batch.map((b) => b.rows)).then(
      (errors) => {
        batch.forEach((item, i) => {
          const err = errors[i];
          if (err) item.reject(err);
          else item.resolve();
        });
      },
      (err: unknown) => {
        // The thread is gone; whether this batch was committed is unknown, so it fails (the
        // integrator retries) and later creates are written on this thread.
        writer = null;
        writerGone = true;
        for (const item of batch) item.reject(err);
      },
    );
    writing.add(written);
    void written.finally(() => {
      writing.delete(written);
      if (pending.length > 0 && !flushScheduled) flush();
    });
  };

  const drain = async () => {
    while (writing.size > 0 || pending.length > 0) {
      if (writing.size > 0) await Promise.all(writing);
      else flush();
    }
  };

  return {
    write(rows) {
      // Creates that came in while the thread committed earlier ones release those first.
      writer?.collect();
      return new Promise<void>((resolve, reject) => {
        pending.push({ rows, resolve, reject });
        if (!flushScheduled && writing.size < BATCHES_IN_FLIGHT) {
          flushScheduled = true;
          setImmediate(flush);
        }
      });
    },
    drain,
    async stop() {
      await drain();
      await writer?.stop();
    },
  };
}
