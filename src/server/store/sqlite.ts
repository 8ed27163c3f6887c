import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { SESSION_STATUSES } from '../../core/api';
import type { Flow } from '../../core/flow';
import { flowJsonOf } from '../flowJson';
import { newId, orderedId, sameSecret, sessionOfSecret, sha256Hex } from '../ids';
import { startCheckpointer, type Checkpointer } from './checkpointer';
import {
  CREATE_LAYOUT,
  CREATE_SQL,
  createRows,
  eventValues,
  startCreateWriter,
  type CreateRows,
  type CreateWriter,
} from './createWriter';
import { CORE_MIGRATIONS, runMigrations, type Migration } from './migrations';
import { SqliteOtps } from './otps';
import {
  FINISHED_RANK,
  SESSION_COLUMNS,
  SORT_COLUMNS,
  mergeFinishedOrder,
  rowToSession,
  sortValues,
  statusRank,
  type SessionRow,
} from './rows';
import type {
  Account,
  ApiKeyRecord,
  AvatarRecord,
  ClientSecretRecord,
  ClientTokenRecord,
  EventRecord,
  ExchangeInput,
  ExchangeOutcome,
  LangRecord,
  ListPage,
  ListQuery,
  OtpCheckInput,
  OtpCheckOutcome,
  OtpRecord,
  OtpSendClaim,
  OtpSendOutcome,
  Scope,
  SessionRecord,
  SessionStore,
} from './types';

export interface SqliteStoreOptions {
  /** The database file; its folder is created when missing. */
  path: string;
  /**
   * `NORMAL` (default): in WAL mode a commit has been written to the WAL file by the kernel's
   * `write()` before it returns, so a killed process (`kill -9`) loses nothing it acknowledged;
   * only a power cut or kernel crash can lose the last commits before a checkpoint. `FULL` also
   * fsyncs every commit, for machines where that matters more than write speed.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** Defaults to the core's; a data folder's store lists every feature's (`SERVER_MIGRATIONS`). */
  migrations?: readonly Migration[];
  /** How long a write waits for another process (the CLI) holding the lock. */
  busyTimeoutMs?: number;
  /**
   * Checkpoint the WAL from a thread of its own (default); `false` leaves it to SQLite's
   * automatic checkpoint inside commits (short-lived processes such as the CLI).
   */
  backgroundCheckpoints?: boolean;
  /**
   * Insert new sessions from a thread of its own (default, like `backgroundCheckpoints`): the
   * insert and commit leave the event loop. `false` inserts them on the caller's thread.
   */
  createsOnThread?: boolean;
}

/** How stale the key cache may get with respect to other processes' writes. */
export const KEY_RECHECK_MS = 200;

/** A session and its current client secret, as `getSessionWithSecret` returns them. */
export interface SessionWithSecret {
  session: SessionRecord;
  secret: ClientSecretRecord | null;
}

const READ_CACHE_MAX = 10_000;
/**
 * Create batches on the writer thread at once: one being written while the next is queued, so
 * neither the event loop nor the thread waits for the other; more would only make batches smaller.
 */
const BATCHES_IN_FLIGHT = 2;

interface PendingCreate {
  rows: CreateRows;
  flowHash: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface KeyRow {
  id: string;
  account_id: string;
  account_name: string;
  mode: 'test' | 'live';
  prefix: string;
  hash: string;
  created_at: number;
  revoked_at: number | null;
}

const SECRET_COLUMNS = 'secret, secret_created_at, secret_expire_at, secret_used_at';

interface SecretColumns {
  id: string;
  secret: string;
  secret_created_at: number;
  secret_expire_at: number;
  secret_used_at: number | null;
}

const secretOf = (r: SecretColumns): ClientSecretRecord => ({
  secret: r.secret,
  sessionId: r.id,
  createdAt: r.secret_created_at,
  expireAt: r.secret_expire_at,
  usedAt: r.secret_used_at,
  revokedAt: null,
});

const keyRow = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  accountName: r.account_name,
  mode: r.mode,
  prefix: r.prefix,
  hash: r.hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

const KEY_SELECT = `SELECT k.id, k.account_id, a.name AS account_name, k.mode, k.prefix, k.hash,
  k.created_at, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id`;

/**
 * Opens (and migrates) the SQLite store at `options.path`.
 *
 * @example
 * const store = openSqliteStore({ path: 'data/idv.sqlite' });
 * await store.countAccounts(); // 0 on a new file
 */
export function openSqliteStore(options: SqliteStoreOptions): SqliteSessionStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new BetterSqlite3(options.path);
  db.pragma('journal_mode = WAL');
  // Checkpoints (each rewrites pages and fsyncs the database file) run on a thread of their own;
  // SQLite's automatic one, inside a commit, stays only as a safety net should that thread fall
  // far behind. The WAL is cut back to 64 MB after a checkpoint.
  const background = options.path !== ':memory:' && options.backgroundCheckpoints !== false;
  // Per connection: the create writer's connection gets the same.
  const pragmas = [
    `synchronous = ${options.synchronous ?? 'NORMAL'}`,
    `busy_timeout = ${options.busyTimeoutMs ?? 5000}`,
    'foreign_keys = ON',
    `wal_autocheckpoint = ${background ? 100_000 : 10_000}`,
    `journal_size_limit = ${64 * 1024 * 1024}`,
    'cache_size = -32768',
  ];
  for (const pragma of pragmas) db.pragma(pragma);
  runMigrations(db, options.migrations ?? CORE_MIGRATIONS);
  const onThread = options.path !== ':memory:' && (options.createsOnThread ?? background);
  return new SqliteSessionStore(
    db,
    background ? startCheckpointer(options.path) : null,
    // Started on the first create: a short-lived process (the CLI) that creates none never pays.
    onThread ? () => startCreateWriter({ path: options.path, pragmas }) : null,
  );
}

/** The `SessionStore` over one SQLite file (WAL), shared safely by the server and the CLI. */
export class SqliteSessionStore implements SessionStore {
  /** For migrations and store code of other features; nothing outside `store/` modules speaks SQL. */
  readonly db: Database;
  private readonly s;
  private readonly listCache = new Map<string, Statement>();
  private pendingCreates: PendingCreate[] = [];
  private flushScheduled = false;
  /** Batches handed to the create writer's thread and not yet answered. */
  private readonly writing = new Set<Promise<void>>();
  private writer: CreateWriter | null = null;
  private writerGone = false;
  private readonly flows = new Map<string, Flow>();
  private readonly flowKeys = new WeakMap<Flow, { hash: string; json: string }>();
  private readonly flowsStored = new Set<string>();
  private readonly flowHashByText = new Map<string, string>();
  /** Key lookups, dropped whenever another process (the CLI) commits or this one changes keys. */
  private readonly keyCache = new Map<string, ApiKeyRecord | null>();
  private keyCacheVersion = -1;
  private keyCheckedAt = -Infinity;
  /**
   * Recently read sessions with their secret. Sessions are written only through this store, so
   * every write below drops its entry; writes by other processes clear it all (see above).
   */
  private readonly readCache = new Map<string, SessionWithSecret>();
  private otpStatements: SqliteOtps | null = null;

  constructor(
    db: Database,
    private readonly checkpointer: Checkpointer | null = null,
    private readonly startWriter: (() => CreateWriter) | null = null,
  ) {
    this.db = db;
    this.insertBatch = db.transaction((items: CreateRows[]) => {
      for (const item of items) this.insertRows(item);
    });
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      accountByName: p('SELECT id, name, created_at FROM accounts WHERE name = ?'),
      insertAccount: p('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)'),
      countAccounts: p('SELECT count(*) AS n FROM accounts'),
      dataVersion: p('PRAGMA data_version').pluck(),
      insertKey: p(
        'INSERT INTO api_keys (id, account_id, mode, prefix, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      keyByHash: p(`${KEY_SELECT} WHERE k.hash = ?`),
      listKeys: p(`${KEY_SELECT} ORDER BY k.created_at, k.id`),
      keysByPrefix: p(`${KEY_SELECT} WHERE k.prefix LIKE ? ESCAPE '\\' AND k.revoked_at IS NULL`),
      revokeKey: p('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      insertSession: p(CREATE_SQL.insertSession),
      insertFlow: p(CREATE_SQL.insertFlow),
      flowByHash: p('SELECT flow FROM flows WHERE hash = ?').pluck(),
      sessionInScope: p(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ? AND account_id = ? AND mode = ?`,
      ),
      sessionById: p(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`),
      sessionWithSecret: p(`SELECT ${SESSION_COLUMNS}, ${SECRET_COLUMNS} FROM sessions
        WHERE id = ? AND account_id = ? AND mode = ?`),
      sessionByRetiredSecret: p(`SELECT ${SESSION_COLUMNS} FROM sessions
        WHERE id = (SELECT session_id FROM retired_secrets WHERE secret = ?)`),
      secretOfSession: p(`SELECT id, ${SECRET_COLUMNS} FROM sessions WHERE id = ?`),
      sessionAndSecretById: p(
        `SELECT ${SESSION_COLUMNS}, ${SECRET_COLUMNS} FROM sessions WHERE id = ?`,
      ),
      // Secrets made before they carried their session's id (core_0002), by their own index.
      sessionAndLegacySecret: p(`SELECT ${SESSION_COLUMNS}, ${SECRET_COLUMNS} FROM sessions
        WHERE secret = ? AND instr(secret, '.') = 0`),
      retiredSecret: p('SELECT * FROM retired_secrets WHERE secret = ?'),
      retireSecret: p(`INSERT INTO retired_secrets (secret, session_id, created_at, expire_at,
        used_at, retired_at) SELECT secret, id, secret_created_at, secret_expire_at,
        secret_used_at, ? FROM sessions WHERE id = ?`),
      setSecret: p(`UPDATE sessions SET secret = ?, secret_created_at = ?, secret_expire_at = ?,
        secret_used_at = NULL WHERE id = ?`),
      useSecret: p(`UPDATE sessions SET secret_used_at = ? WHERE id = ? AND secret = ?
        AND secret_used_at IS NULL`),
      updateSession: p(`UPDATE sessions SET status = @status, status_rank = @status_rank,
        started_at = @started_at, finished_at = @finished_at, finished_sort = @finished_sort,
        last_activity_at = @last_activity_at, report = @report, position = @position,
        rev = rev + 1 WHERE id = @id AND rev = @rev`),
      // Through sessions_by_status: unopened ones by creation time, open ones (few at any time)
      // by their last activity.
      timedOut: p(`SELECT ${SESSION_COLUMNS} FROM sessions
        WHERE account_id = @account AND mode = @mode AND status_rank = 0 AND created_at < @created
        UNION ALL
        SELECT ${SESSION_COLUMNS} FROM sessions
        WHERE account_id = @account AND mode = @mode AND status_rank = 1 AND last_activity_at < @idle
        LIMIT @limit`),
      accountIds: p('SELECT id FROM accounts').pluck(),
      insertToken: p(`INSERT INTO client_tokens (hash, session_id, created_at, expires_at)
        VALUES (?, ?, ?, ?)`),
      token: p('SELECT * FROM client_tokens WHERE hash = ?'),
      revokeTokens: p(`UPDATE client_tokens SET revoked_at = ?
        WHERE session_id = ? AND revoked_at IS NULL`),
      insertEvent:
        p(`INSERT INTO events (id, account_id, mode, type, session_id, created_at, payload)
        VALUES (@id, @accountId, @mode, @type, @sessionId, @createdAt, @payload)`),
      createEvent: p(CREATE_SQL.insertEvent),
      eventsAfter: p(`SELECT rowid AS seq, * FROM events WHERE rowid > ? ORDER BY rowid LIMIT ?`),
      // No index on session_id: the outbox is read in order; this one is for inspection.
      eventsOfSession: p(`SELECT rowid AS seq, * FROM events WHERE session_id = ? AND rowid > ?
        ORDER BY rowid LIMIT ?`),
      avatars: p('SELECT * FROM avatars ORDER BY created_at, id'),
      avatar: p('SELECT * FROM avatars WHERE id = ?'),
      upsertAvatar: p(`INSERT INTO avatars (id, name, gender, image_url, created_at)
        VALUES (@id, @name, @gender, @imageUrl, @createdAt)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, gender = excluded.gender,
        image_url = excluded.image_url`),
      deleteAvatar: p('DELETE FROM avatars WHERE id = ?'),
      langs: p('SELECT id, title FROM langs ORDER BY position'),
    };
  }

  async ensureAccount(name: string, now: number): Promise<Account> {
    return this.db
      .transaction((): Account => {
        const found = this.s.accountByName.get(name) as
          { id: string; name: string; created_at: number } | undefined;
        if (found) return { id: found.id, name: found.name, createdAt: found.created_at };
        const id = newId('acct');
        this.s.insertAccount.run(id, name, now);
        return { id, name, createdAt: now };
      })
      .immediate();
  }

  async findAccount(name: string): Promise<Account | null> {
    const r = this.s.accountByName.get(name) as
      { id: string; name: string; created_at: number } | undefined;
    return r ? { id: r.id, name: r.name, createdAt: r.created_at } : null;
  }

  async countAccounts(): Promise<number> {
    return (this.s.countAccounts.get() as { n: number }).n;
  }

  async insertApiKey(k: Omit<ApiKeyRecord, 'accountName' | 'revokedAt'>): Promise<void> {
    this.keyCache.clear();
    this.s.insertKey.run(k.id, k.accountId, k.mode, k.prefix, k.hash, k.createdAt);
  }

  /**
   * Drops the read caches when another connection (the CLI, another process) has committed.
   * `data_version` tells, but asking SQLite costs as much as a lookup, so it is asked at most
   * every KEY_RECHECK_MS: a key revoked from the command line is refused within that time.
   */
  private noticeOtherWriters(): void {
    const now = Date.now();
    if (now - this.keyCheckedAt < KEY_RECHECK_MS && now >= this.keyCheckedAt) return;
    this.keyCheckedAt = now;
    const version = this.s.dataVersion.get() as number;
    if (version !== this.keyCacheVersion) {
      this.keyCache.clear();
      this.readCache.clear();
      this.keyCacheVersion = version;
    }
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    this.noticeOtherWriters();
    const hit = this.keyCache.get(hash);
    if (hit !== undefined) return hit;
    const r = this.s.keyByHash.get(hash) as KeyRow | undefined;
    const key = r ? keyRow(r) : null;
    if (this.keyCache.size > 10_000) this.keyCache.clear();
    this.keyCache.set(hash, key);
    return key;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return (this.s.listKeys.all() as KeyRow[]).map(keyRow);
  }

  async revokeApiKey(
    prefix: string,
    now: number,
  ): Promise<{ revoked: ApiKeyRecord } | { error: 'none' | 'ambiguous'; matches: ApiKeyRecord[] }> {
    return this.db
      .transaction(() => {
        // A whole key is longer than the stored prefix: compare on the stored length.
        const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
        const rows = (this.s.keysByPrefix.all(`${escaped}%`) as KeyRow[]).map(keyRow);
        const matches = rows.length
          ? rows
          : ((this.s.listKeys.all() as KeyRow[])
              .map(keyRow)
              .filter(
                (k) => k.revokedAt === null && prefix.startsWith(k.prefix),
              ) as ApiKeyRecord[]);
        if (matches.length === 0) return { error: 'none' as const, matches };
        if (matches.length > 1) return { error: 'ambiguous' as const, matches };
        const key = matches[0] as ApiKeyRecord;
        this.s.revokeKey.run(now, key.id);
        this.keyCache.clear();
        return { revoked: { ...key, revokedAt: now } };
      })
      .immediate();
  }

  /** The stored form of a flow: its JSON and the hash it is kept under. */
  private flowKey(flow: Flow): { hash: string; json: string } {
    const known = this.flowKeys.get(flow);
    if (known) return known;
    const json = flowJsonOf(flow);
    // Each request parses its own copy of the same few flows: recognising the text is far cheaper
    // than hashing it again.
    let hash = this.flowHashByText.get(json);
    if (hash === undefined) {
      hash = sha256Hex(json);
      if (this.flowHashByText.size >= 200) this.flowHashByText.clear();
      if (json.length <= 64 * 1024) this.flowHashByText.set(json, hash);
    }
    const key = { hash, json };
    this.flowKeys.set(flow, key);
    return key;
  }

  /** A stored flow by hash, parsed once and kept (flows never change). */
  private readonly flowOf = (hash: string): Flow => {
    let flow = this.flows.get(hash);
    if (!flow) {
      const json = this.s.flowByHash.get(hash) as string | undefined;
      if (json === undefined) throw new Error(`flow ${hash} is missing from the store`);
      flow = JSON.parse(json) as Flow;
      if (this.flows.size >= 1000) this.flows.clear();
      this.flows.set(hash, flow);
      this.flowKeys.set(flow, { hash, json });
    }
    return flow;
  };

  /** One create's rows, on this connection (inside the caller's transaction). */
  private insertRows(item: CreateRows): void {
    if (item[0] !== null) this.s.insertFlow.run(item[0], item[1]);
    this.s.insertSession.run(item.slice(...CREATE_LAYOUT.session));
    this.s.createEvent.run(eventValues(item));
  }

  private statusEvent(s: SessionRecord, now: number): void {
    const id = orderedId('evt', 8);
    this.s.insertEvent.run({
      id,
      accountId: s.accountId,
      mode: s.mode,
      type: 'session.status',
      sessionId: s.id,
      createdAt: now,
      payload: JSON.stringify({ id, type: 'session.status', createdAt: now, sessionId: s.id }),
    });
  }

  /**
   * Group commit: creates arriving in the same turn of the event loop share one transaction (one
   * WAL append), on the create writer's thread when there is one. With two batches on the thread
   * the next one gathers, so the busier the server the larger the batches. Should any row of a
   * batch fail, the batch is rolled back and each create is retried in a transaction of its own, so
   * one bad create fails only itself; per-row savepoints would cost every create for a case that
   * almost never happens. Every promise settles after the commit, so nothing is acknowledged before
   * it is written.
   */
  async createSession(session: SessionRecord, secret: ClientSecretRecord): Promise<void> {
    const key = this.flowKey(session.settings.flow);
    const rows = createRows(
      session,
      secret,
      key,
      this.flowsStored.has(key.hash),
      orderedId('evt', 8),
    );
    // Creates that came in while the thread committed earlier ones release those first.
    this.writer?.collect();
    return new Promise<void>((resolve, reject) => {
      this.pendingCreates.push({ rows, flowHash: key.hash, resolve, reject });
      if (!this.flushScheduled && this.writing.size < BATCHES_IN_FLIGHT) {
        this.flushScheduled = true;
        setImmediate(() => this.flushCreates());
      }
    });
  }

  private flushCreates(): void {
    this.flushScheduled = false;
    const batch = this.pendingCreates;
    if (batch.length === 0) return;
    this.pendingCreates = [];
    const writer = this.createWriter();
    if (!writer) {
      this.insertInline(batch);
      return;
    }
    const written = writer.write(batch.map((b) => b.rows)).then(
      (errors) => {
        batch.forEach((item, i) => {
          const err = errors[i];
          if (err) {
            item.reject(err);
          } else {
            this.flowsStored.add(item.flowHash);
            item.resolve();
          }
        });
      },
      (err: unknown) => {
        // The thread is gone; whether this batch was committed is unknown, so it fails (the
        // integrator retries) and later creates are written on this thread.
        this.writer = null;
        this.writerGone = true;
        for (const item of batch) item.reject(err);
      },
    );
    this.writing.add(written);
    void written.finally(() => {
      this.writing.delete(written);
      if (this.pendingCreates.length > 0 && !this.flushScheduled) this.flushCreates();
    });
  }

  private insertInline(batch: PendingCreate[]): void {
    try {
      this.insertBatch(batch.map((b) => b.rows));
      for (const item of batch) this.created(item);
    } catch {
      for (const item of batch) {
        try {
          this.insertBatch([item.rows]);
          this.created(item);
        } catch (err) {
          item.reject(err ?? new Error('create failed'));
        }
      }
    }
  }

  /** Only after its commit is a flow known to be stored. */
  private created(item: PendingCreate): void {
    this.flowsStored.add(item.flowHash);
    item.resolve();
  }

  private createWriter(): CreateWriter | null {
    if (this.writer || this.writerGone || !this.startWriter) return this.writer;
    try {
      this.writer = this.startWriter();
    } catch {
      this.writerGone = true;
    }
    return this.writer;
  }

  /** Until every create handed to the store has settled. */
  private async drainCreates(): Promise<void> {
    while (this.writing.size > 0 || this.pendingCreates.length > 0) {
      if (this.writing.size > 0) await Promise.all(this.writing);
      else this.flushCreates();
    }
  }

  private readonly insertBatch: (items: CreateRows[]) => void;

  async getSession(scope: Scope, id: string): Promise<SessionRecord | null> {
    const r = this.s.sessionInScope.get(id, scope.accountId, scope.mode) as SessionRow | undefined;
    return r ? rowToSession(r, this.flowOf) : null;
  }

  async getSessionWithSecret(scope: Scope, id: string): Promise<SessionWithSecret | null> {
    this.noticeOtherWriters();
    const hit = this.readCache.get(id);
    if (hit) {
      const s = hit.session;
      return s.accountId === scope.accountId && s.mode === scope.mode ? hit : null;
    }
    const r = this.s.sessionWithSecret.get(id, scope.accountId, scope.mode) as
      (SessionRow & SecretColumns) | undefined;
    if (!r) return null;
    const found = { session: rowToSession(r, this.flowOf), secret: secretOf(r) };
    if (this.readCache.size >= READ_CACHE_MAX) {
      const oldest = this.readCache.keys().next().value;
      if (oldest !== undefined) this.readCache.delete(oldest);
    }
    this.readCache.set(id, found);
    return found;
  }

  async getSessionById(id: string): Promise<SessionRecord | null> {
    const r = this.s.sessionById.get(id) as SessionRow | undefined;
    return r ? rowToSession(r, this.flowOf) : null;
  }

  async getSessionBySecret(secret: string): Promise<SessionRecord | null> {
    const r = (this.currentSecret(secret) ?? this.s.sessionByRetiredSecret.get(secret)) as
      SessionRow | undefined;
    return r ? rowToSession(r, this.flowOf) : null;
  }

  /** The session whose current client secret this is, with the secret's columns. */
  private currentSecret(secret: string): (SessionRow & SecretColumns) | undefined {
    const id = sessionOfSecret(secret);
    if (id === null) {
      return this.s.sessionAndLegacySecret.get(secret) as (SessionRow & SecretColumns) | undefined;
    }
    const r = this.s.sessionAndSecretById.get(id) as (SessionRow & SecretColumns) | undefined;
    // The id is public; only the random part is a credential, so it is compared in constant time.
    return r && sameSecret(r.secret, secret) ? r : undefined;
  }

  /** The filters of a list query, after account and mode, with their values. */
  private listFilters(q: ListQuery): { where: string[]; params: unknown[] } {
    const where = ['account_id = ?', 'mode = ?'];
    const params: unknown[] = [];
    if (q.clientReferenceId !== undefined) {
      where.push('client_reference_id = ?');
      params.push(q.clientReferenceId);
    }
    if (q.flowId !== undefined) {
      where.push('flow_id = ?');
      params.push(q.flowId);
    }
    if (q.statuses && q.statuses.length) {
      where.push(`status_rank IN (${q.statuses.map(() => '?').join(', ')})`);
      params.push(...q.statuses.map(statusRank));
    }
    if (q.fromDate !== undefined) {
      where.push('created_at >= ?');
      params.push(q.fromDate);
    }
    if (q.toDate !== undefined) {
      where.push('created_at < ?');
      params.push(q.toDate);
    }
    if (q.search) {
      where.push('instr(search_text, ?) > 0');
      params.push(q.search);
    }
    return { where, params };
  }

  private prepareList(sql: string): Statement {
    let st = this.listCache.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.listCache.set(sql, st);
    }
    return st;
  }

  /**
   * The queries whose merged rows make a page, each walking one index in the page's order.
   *
   * One for `createdAt` and `status`. Three for `finishedAt`, because `sessions_by_finished` holds
   * finished sessions only (a new session then writes one index fewer): unfinished sessions all
   * sort at 0, that is by creation, which `sessions_by_status` gives for each unfinished status.
   */
  private pageQueries(
    q: ListQuery,
    { where, params }: { where: string[]; params: unknown[] },
  ): { st: Statement; params: unknown[] }[] {
    const dir = q.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const op = q.sortOrder === 'asc' ? '>' : '<';
    const query = (cols: readonly string[], extra: string[], extraParams: unknown[]) => ({
      st: this.prepareList(`SELECT ${SESSION_COLUMNS} FROM sessions
        WHERE ${[...where, ...extra].join(' AND ')}
        ORDER BY ${cols.map((c) => `${c} ${dir}`).join(', ')} LIMIT ?`),
      params: [...params, ...extraParams, q.limit + 1],
    });
    // Keyset: the row value after the last one seen; rows added since never shift a page.
    const keyset = (cols: readonly string[]) => [
      `(${cols.join(', ')}) ${op} (${cols.map(() => '?').join(', ')})`,
    ];
    if (q.sortBy !== 'finishedAt') {
      const cols = SORT_COLUMNS[q.sortBy];
      return [q.after ? query(cols, keyset(cols), q.after) : query(cols, [], [])];
    }
    const ranks = new Set((q.statuses ?? SESSION_STATUSES).map(statusRank));
    const out: { st: Statement; params: unknown[] }[] = [];
    const byCreation = SORT_COLUMNS.createdAt;
    // A finishedAt cursor's first value is a number (decodeCursor).
    const at = q.after?.[0] as number | undefined;
    for (let rank = 0; rank < FINISHED_RANK; rank++) {
      if (!ranks.has(rank)) continue;
      const unfinished = ['status_rank = ?', 'finished_sort = 0'];
      // They all sort at 0: after the cursor's value come all of them, those created after it, or none.
      if (at === undefined || (q.sortOrder === 'asc' ? 0 > at : 0 < at)) {
        out.push(query(byCreation, unfinished, [rank]));
      } else if (at === 0) {
        const rest = q.after?.slice(1) ?? [];
        out.push(query(byCreation, [...unfinished, ...keyset(byCreation)], [rank, ...rest]));
      }
    }
    if ([...ranks].some((r) => r >= FINISHED_RANK)) {
      const cols = SORT_COLUMNS.finishedAt;
      const finished = [`status_rank >= ${FINISHED_RANK}`];
      out.push(
        q.after ? query(cols, [...finished, ...keyset(cols)], q.after) : query(cols, finished, []),
      );
    }
    return out;
  }

  async listSessions(scope: Scope, q: ListQuery): Promise<ListPage> {
    return this.db.transaction((): ListPage => {
      const filters = this.listFilters(q);
      let rows: SessionRow[] = [];
      for (const { st, params } of this.pageQueries(q, filters)) {
        rows.push(...(st.all(scope.accountId, scope.mode, ...params) as SessionRow[]));
      }
      if (q.sortBy === 'finishedAt')
        rows = mergeFinishedOrder(rows, q.sortOrder).slice(0, q.limit + 1);
      const hasMore = rows.length > q.limit;
      const sessions = rows.slice(0, q.limit).map((r) => rowToSession(r, this.flowOf));
      const last = sessions[sessions.length - 1];
      const next = hasMore ? (last ? sortValues(last, q.sortBy) : q.after) : null;
      const page: ListPage = { sessions, next, hasMore };
      if (q.includeTotal) {
        const count = this.prepareList(
          `SELECT count(*) AS n FROM sessions WHERE ${filters.where.join(' AND ')}`,
        );
        page.totalCount = (
          count.get(scope.accountId, scope.mode, ...filters.params) as { n: number }
        ).n;
      }
      return page;
    })();
  }

  private updateInTx(prev: SessionRecord, next: SessionRecord, now: number): SessionRecord | null {
    const res = this.s.updateSession.run({
      id: prev.id,
      rev: prev.rev,
      status: next.status,
      status_rank: statusRank(next.status),
      started_at: next.startedAt,
      finished_at: next.finishedAt,
      finished_sort: next.finishedAt ?? 0,
      last_activity_at: next.lastActivityAt,
      report: JSON.stringify(next.report),
      position: JSON.stringify(next.position),
    });
    this.readCache.delete(prev.id);
    if (res.changes === 0) return null;
    if (next.status !== prev.status) this.statusEvent(next, now);
    return { ...next, rev: prev.rev + 1 };
  }

  async updateSession(
    prev: SessionRecord,
    next: SessionRecord,
    now: number,
  ): Promise<SessionRecord | null> {
    return this.db.transaction(() => this.updateInTx(prev, next, now))();
  }

  async listTimedOut(
    createdBefore: number,
    idleBefore: number,
    limit: number,
  ): Promise<SessionRecord[]> {
    const out: SessionRecord[] = [];
    for (const account of this.s.accountIds.all() as string[]) {
      for (const mode of ['test', 'live'] as const) {
        const rows = this.s.timedOut.all({
          account,
          mode,
          created: createdBefore,
          idle: idleBefore,
          limit: limit - out.length,
        }) as SessionRow[];
        for (const r of rows) out.push(rowToSession(r, this.flowOf));
        if (out.length >= limit) return out;
      }
    }
    return out;
  }

  async getLatestClientSecret(sessionId: string): Promise<ClientSecretRecord | null> {
    const r = this.s.secretOfSession.get(sessionId) as (SecretColumns & { id: string }) | undefined;
    return r ? secretOf(r) : null;
  }

  async refreshClientSecret(
    scope: Scope,
    sessionId: string,
    secret: ClientSecretRecord,
    expire?: (session: SessionRecord) => SessionRecord | null,
  ): Promise<'ok' | 'not_found' | 'finished'> {
    return this.db
      .transaction(() => {
        const r = this.s.sessionInScope.get(sessionId, scope.accountId, scope.mode) as
          SessionRow | undefined;
        if (!r) return 'not_found' as const;
        if (r.status === 'complete' || r.status === 'incomplete') return 'finished' as const;
        this.readCache.delete(sessionId);
        if (expire) {
          const session = rowToSession(r, this.flowOf);
          const ended = expire(session);
          if (ended) {
            this.updateInTx(session, ended, secret.createdAt);
            return 'finished' as const;
          }
        }
        this.s.retireSecret.run(secret.createdAt, sessionId);
        this.s.setSecret.run(secret.secret, secret.createdAt, secret.expireAt, sessionId);
        this.s.revokeTokens.run(secret.createdAt, sessionId);
        return 'ok' as const;
      })
      .immediate();
  }

  async exchangeClientSecret(input: ExchangeInput): Promise<ExchangeOutcome> {
    return this.db
      .transaction((): ExchangeOutcome => {
        const cur = this.currentSecret(input.secret);
        if (!cur) {
          const retired = this.s.retiredSecret.get(input.secret) as
            { used_at: number | null } | undefined;
          if (!retired) return { ok: false, reason: 'invalid' };
          // Replaced by a refresh: dead whether it was used or not.
          return { ok: false, reason: retired.used_at !== null ? 'used' : 'expired' };
        }
        if (cur.secret_used_at !== null) return { ok: false, reason: 'used' };
        if (cur.secret_expire_at <= input.now) return { ok: false, reason: 'expired' };
        this.readCache.delete(cur.id);
        const session = rowToSession(cur, this.flowOf);
        const ended = input.expire?.(session) ?? null;
        if (ended) {
          this.updateInTx(session, ended, input.now);
          return { ok: false, reason: 'expired' };
        }
        if (this.s.useSecret.run(input.now, cur.id, input.secret).changes === 0) {
          return { ok: false, reason: 'used' };
        }
        this.s.insertToken.run(input.token.hash, cur.id, input.now, input.token.expiresAt);
        const next = input.apply(session);
        const saved = this.updateInTx(session, next, input.now);
        // Inside one immediate transaction nobody else can have moved the row.
        return { ok: true, session: saved ?? session };
      })
      .immediate();
  }

  async findClientToken(hash: string): Promise<ClientTokenRecord | null> {
    const r = this.s.token.get(hash) as
      | {
          hash: string;
          session_id: string;
          created_at: number;
          expires_at: number;
          revoked_at: number | null;
        }
      | undefined;
    return r
      ? {
          hash: r.hash,
          sessionId: r.session_id,
          createdAt: r.created_at,
          expiresAt: r.expires_at,
          revokedAt: r.revoked_at,
        }
      : null;
  }

  /** Prepared on first use: a store opened with only some migrations (their tests) has no OTP tables. */
  private otps(): SqliteOtps {
    return (this.otpStatements ??= new SqliteOtps(this.db));
  }

  async getOtp(sessionId: string, nodeId: string): Promise<OtpRecord | null> {
    return this.otps().get(sessionId, nodeId);
  }

  async claimOtpSend(claim: OtpSendClaim): Promise<OtpSendOutcome> {
    return this.otps().claim(claim);
  }

  async checkOtp(input: OtpCheckInput): Promise<OtpCheckOutcome> {
    return this.otps().check(input);
  }

  async appendEvent(event: EventRecord): Promise<void> {
    this.s.insertEvent.run(event);
  }

  async listEvents(options: {
    after?: number;
    limit?: number;
    sessionId?: string;
  }): Promise<(EventRecord & { seq: number })[]> {
    const after = options.after ?? 0;
    const limit = options.limit ?? 1000;
    const rows = (
      options.sessionId !== undefined
        ? this.s.eventsOfSession.all(options.sessionId, after, limit)
        : this.s.eventsAfter.all(after, limit)
    ) as {
      seq: number;
      id: string;
      account_id: string;
      mode: 'test' | 'live';
      type: string;
      session_id: string;
      created_at: number;
      payload: string;
    }[];
    return rows.map((r) => ({
      seq: r.seq,
      id: r.id,
      accountId: r.account_id,
      mode: r.mode,
      type: r.type,
      sessionId: r.session_id,
      createdAt: r.created_at,
      payload: r.payload,
    }));
  }

  async listAvatars(): Promise<AvatarRecord[]> {
    return (this.s.avatars.all() as AvatarDbRow[]).map(avatarRow);
  }

  async getAvatar(id: string): Promise<AvatarRecord | null> {
    const r = this.s.avatar.get(id) as AvatarDbRow | undefined;
    return r ? avatarRow(r) : null;
  }

  async upsertAvatar(avatar: AvatarRecord): Promise<void> {
    this.s.upsertAvatar.run(avatar);
  }

  async deleteAvatar(id: string): Promise<boolean> {
    return this.s.deleteAvatar.run(id).changes > 0;
  }

  async listLangs(): Promise<LangRecord[]> {
    return this.s.langs.all() as LangRecord[];
  }

  async close(): Promise<void> {
    await this.drainCreates();
    await this.writer?.stop();
    await this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }
}

interface AvatarDbRow {
  id: string;
  name: string;
  gender: AvatarRecord['gender'];
  image_url: string;
  created_at: number;
}

const avatarRow = (r: AvatarDbRow): AvatarRecord => ({
  id: r.id,
  name: r.name,
  gender: r.gender,
  imageUrl: r.image_url,
  createdAt: r.created_at,
});
