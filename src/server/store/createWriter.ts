import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ClientSecretRecord, SessionRecord } from './types';
import { searchText, settingsJson, statusRank } from './rows';

const SESSION_COLUMNS = [
  'id',
  'account_id',
  'mode',
  'status',
  'status_rank',
  'created_at',
  'started_at',
  'finished_at',
  'finished_sort',
  'last_activity_at',
  'flow_id',
  'flow_hash',
  'client_reference_id',
  'version',
  'search_text',
  'settings',
  'report',
  'position',
  'secret',
  'secret_created_at',
  'secret_expire_at',
] as const;
const marks = (n: number) => new Array<string>(n).fill('?').join(', ');

/** The statements a create runs, shared by the store's own connection and the writer thread's. */
export const CREATE_SQL = {
  insertFlow: 'INSERT OR IGNORE INTO flows (hash, flow) VALUES (?, ?)',
  insertSession: `INSERT INTO sessions (${SESSION_COLUMNS.join(', ')}, rev)
    VALUES (${marks(SESSION_COLUMNS.length)}, 0)`,
  // The status event of a new session repeats the session's own values, so only its id crosses
  // to the writer thread; the payload is made here, in the same key order as everywhere else
  // (numbers are bound as REAL, which json_object would write as 1001.0).
  insertEvent: `INSERT INTO events (id, account_id, mode, type, session_id, created_at, payload)
    VALUES (?, ?, ?, 'session.status', ?, ?, json_object('id', ?, 'type', 'session.status',
      'createdAt', CAST(? AS INTEGER), 'sessionId', ?))`,
} as const;

type Value = string | number | null;

/**
 * One create as a flat list of values: the flow's hash and text (inserted unless stored
 * already), then the session's columns, then its status event's id. Flat, because copying a list
 * of strings and numbers to the writer thread costs far less than copying objects with named keys.
 */
export type CreateRows = Value[];

const SESSION_AT = 2;
const EVENT_ID_AT = SESSION_AT + SESSION_COLUMNS.length;
const column = (name: (typeof SESSION_COLUMNS)[number]) =>
  SESSION_AT + SESSION_COLUMNS.indexOf(name);

/** Where each statement's values sit in `CreateRows`. */
export const CREATE_LAYOUT = {
  flow: [0, SESSION_AT],
  session: [SESSION_AT, EVENT_ID_AT],
  /** `insertEvent`'s values, in its order: the event's id, then the session's own. */
  event: [
    EVENT_ID_AT,
    column('account_id'),
    column('mode'),
    column('id'),
    column('created_at'),
    EVENT_ID_AT,
    column('created_at'),
    column('id'),
  ],
} as const;

/**
 * `insertEvent`'s values for one create.
 *
 * @example
 * db.prepare(CREATE_SQL.insertEvent).run(eventValues(rows));
 */
export function eventValues(item: CreateRows): Value[] {
  return CREATE_LAYOUT.event.map((i) => item[i] as Value);
}

/**
 * The rows of a new session (the values of `CREATE_SQL`'s statements, in `CREATE_LAYOUT`), built
 * where the session was made so that only strings and numbers cross to the writer thread.
 *
 * @example
 * const rows = createRows(session, secret, { hash, json }, 'evt_…');
 */
export function createRows(
  s: SessionRecord,
  secret: ClientSecretRecord,
  flow: { hash: string; json: string },
  eventId: string,
): CreateRows {
  const createdAt = s.createdAt;
  return [
    flow.hash,
    flow.json,
    // In SESSION_COLUMNS' order.
    s.id,
    s.accountId,
    s.mode,
    s.status,
    statusRank(s.status),
    createdAt,
    s.startedAt,
    s.finishedAt,
    s.finishedAt ?? 0,
    s.lastActivityAt,
    s.flowId,
    flow.hash,
    s.clientReferenceId,
    s.version,
    searchText(s),
    settingsJson(s.settings),
    JSON.stringify(s.report),
    JSON.stringify(s.position),
    secret.secret,
    secret.createdAt,
    secret.expireAt,
    eventId,
  ];
}

/**
 * The thread's whole program, plain CommonJS so that it runs the same under tsx, node and vitest.
 * A batch is one transaction; should it fail, each create is retried alone so that one bad row
 * fails only itself (the same rule as the store's own group commit).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
for (const p of workerData.pragmas) db.pragma(p);
const s = {};
for (const [k, sql] of Object.entries(workerData.sql)) s[k] = db.prepare(sql);
const L = workerData.layout;
const apply = (item) => {
  s.insertFlow.run(item[0], item[1]);
  s.insertSession.run(item.slice(L.session[0], L.session[1]));
  s.insertEvent.run(L.event.map((i) => item[i]));
};
const all = db.transaction((items) => { for (const item of items) apply(item); });
const one = db.transaction(apply);
const failure = (e) => ({ message: String((e && e.message) || e), code: e && e.code });
parentPort.on('message', (m) => {
  if (m === 'stop') { db.close(); parentPort.postMessage('stopped'); return; }
  let errors = null;
  try {
    all(m.items);
  } catch {
    errors = m.items.map((item) => { try { one(item); return null; } catch (e) { return failure(e); } });
  }
  // The flag first: the event loop may see it, busy with other requests, before the message.
  Atomics.store(workerData.settled, m.id % workerData.settled.length, errors ? workerData.failed : workerData.committed);
  parentPort.postMessage({ id: m.id, errors });
});
`;

/** A batch's slot in the shared flags: committed whole, or with failures the message carries. */
const COMMITTED = 1;
const FAILED = 2;
/** Batches in flight are few; the slots only need to outnumber them. */
const SETTLED_SLOTS = 1024;

/** A create the thread refused (a constraint, a full disk). */
export class CreateWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'CreateWriteError';
  }
}

export interface CreateWriter {
  /**
   * Resolves, without waiting for the thread's message, the batches the thread has committed
   * whole. Cheap; the store calls it whenever a create arrives.
   */
  collect(): void;
  /**
   * Writes the creates in one transaction on the thread; one entry per create, `null` once it is
   * committed, its error otherwise. Rejects only when the thread itself is gone.
   */
  write(items: CreateRows[]): Promise<(Error | null)[]>;
  /** Finishes what was sent, then closes the thread's connection. */
  stop(): Promise<void>;
}

export interface CreateWriterOptions {
  path: string;
  /** Per-connection settings the store's own connection has too (busy timeout, synchronous…). */
  pragmas: string[];
}

/**
 * A thread of its own that inserts new sessions. The insert and the commit of a create are most
 * of its cost (seven B-trees, the WAL append); on the event loop they hold up every other
 * request, on a thread they use the machine's other core. The caller acknowledges a create only
 * after `write` says it is committed, so a killed process loses nothing it acknowledged.
 *
 * @example
 * const w = startCreateWriter({ path: 'data/idv.sqlite', pragmas: ['busy_timeout = 5000'] });
 * const [err] = await w.write([createRows(session, secret, flow, eventId)]);
 * await w.stop();
 */
export function startCreateWriter(opts: CreateWriterOptions): CreateWriter {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  // The thread's message waits behind whatever the event loop is doing, such as reading a run
  // of new requests; under load that doubled the time a create waited. The thread also flags
  // each batch here, which the store checks as each create arrives.
  const settled = new Int32Array(new SharedArrayBuffer(4 * SETTLED_SLOTS));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      path: opts.path,
      driver,
      pragmas: opts.pragmas,
      sql: CREATE_SQL,
      layout: CREATE_LAYOUT,
      settled,
      committed: COMMITTED,
      failed: FAILED,
    },
  });
  // Idle, the thread must not keep the process alive; with writes in flight it must.
  worker.unref();
  let nextId = 1;
  type Failure = { message: string; code?: string } | null;
  const waiting = new Map<
    number,
    { n: number; resolve: (r: (Error | null)[]) => void; reject: (e: Error) => void }
  >();
  let dead: Error | null = null;
  const failAll = (err: Error) => {
    dead ??= err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  const settle = (id: number) => {
    Atomics.store(settled, id % SETTLED_SLOTS, 0);
    waiting.delete(id);
    if (waiting.size === 0) worker.unref();
  };
  worker.on('message', (m: { id: number; errors: Failure[] | null } | string) => {
    if (typeof m !== 'object') return;
    const w = waiting.get(m.id);
    // Already resolved by collect().
    if (!w) return;
    settle(m.id);
    w.resolve(
      m.errors
        ? m.errors.map((e) => (e ? new CreateWriteError(e.message, e.code) : null))
        : new Array<null>(w.n).fill(null),
    );
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new Error(`the create writer stopped (exit code ${code})`)));
  let stopped: Promise<void> | null = null;
  return {
    collect() {
      // The thread commits batches in the order sent, and the map keeps that order.
      for (const [id, w] of waiting) {
        if (Atomics.load(settled, id % SETTLED_SLOTS) !== COMMITTED) return;
        settle(id);
        w.resolve(new Array<null>(w.n).fill(null));
      }
    },
    write(items) {
      if (dead) return Promise.reject(dead);
      if (stopped) return Promise.reject(new Error('the create writer is stopped'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { n: items.length, resolve, reject });
        worker.ref();
        worker.postMessage({ id, items });
      });
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (dead) {
          resolve();
          return;
        }
        worker.ref();
        const done = () => void worker.terminate().finally(resolve);
        // Messages are handled in order: 'stopped' comes after every batch sent before it.
        worker.on('message', (m) => {
          if (m === 'stopped') done();
        });
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      });
      return stopped;
    },
  };
}
