/**
 * The databases the contract tests of the features' stores (analyses, faces, settings, media
 * records, liveness attempts) run on:
 * a SQLite file, or a database of the throwaway PostgreSQL cluster, each with every table of the
 * service. Every `open()` is another connection to the same database: another process on the
 * file, another instance on the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteFaceStore, type FaceStore } from '../faces/face-store';
import { pgFaceStore } from '../faces/pg-face-store';
import { PG_SERVER_MIGRATIONS, SERVER_MIGRATIONS } from '../features';
import { sqliteAttemptStore } from '../liveness/attempt-store';
import type { AttemptStore } from '../liveness/attempt-types';
import { pgAttemptStore } from '../liveness/pg-attempt-store';
import { pgMediaRecords } from '../media/pg-records';
import type { MediaRecordStore, StoredMedia } from '../media/records';
import { sqliteMediaRecords } from '../media/sqlite-records';
import { sqliteAccountSettings, type AccountSettings } from '../session-analyses/account-settings';
import { pgAccountSettings } from '../session-analyses/pg-account-settings';
import { pgAnalysesStore } from '../session-analyses/pg-store';
import { sqliteAnalysesStore } from '../session-analyses/sqlite-store';
import type { AnalysesStore } from '../session-analyses/store';
import { openPgStore } from '../store/pg/store';
import { secretRecord, sessionRecord } from '../store/records';
import { openSqliteStore } from '../store/sqlite';
import type { SessionRecord, SessionStore } from '../store/types';
import type { MediaKind } from '../media/types';
import { pgPlatformSettings } from '../webhooks/pg-platform-settings';
import { sqlitePlatformSettings, type PlatformSettings } from '../webhooks/platform-settings';
import { startPgCluster, type PgCluster } from './pgCluster';

/** One connection, with every feature store over it. */
export interface FeatureConnection {
  store: SessionStore;
  analyses: AnalysesStore;
  settings: AccountSettings;
  faces: FaceStore;
  platform: PlatformSettings;
  media: MediaRecordStore;
  attempts: AttemptStore;
  /** Writes a media record (no bytes: the stores read records only). */
  addMedia(m: { id: string; sessionId: string; kind: MediaKind; createdAt: number }): Promise<void>;
  close(): Promise<void>;
}

export interface FeatureSubject {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A fresh, empty database. */
  fresh(): Promise<void>;
  open(): Promise<FeatureConnection>;
}

/**
 * The SQLite subject: a file in a new temporary folder per `fresh()`.
 *
 * @example
 * describe.each([sqliteFeatures(), pgFeatures()])('the $name store', (subject) => { … });
 */
export function sqliteFeatures(): FeatureSubject {
  let dir: string | null = null;
  return {
    name: 'SQLite',
    async setup() {},
    async teardown() {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
    async fresh() {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(join(tmpdir(), 'idv-features-'));
    },
    async open() {
      if (!dir) throw new Error('no database: fresh() first');
      const store = openSqliteStore({
        path: join(dir, 'idv.sqlite'),
        migrations: SERVER_MIGRATIONS,
        backgroundCheckpoints: false,
        createsOnThread: false,
      });
      const media = sqliteMediaRecords(store.db);
      return {
        store,
        analyses: sqliteAnalysesStore(store.db),
        settings: sqliteAccountSettings(store.db),
        faces: sqliteFaceStore(store.db),
        platform: sqlitePlatformSettings(store.db),
        media,
        attempts: sqliteAttemptStore(store.db),
        addMedia: async (m) => media.insert(mediaRecord(m)),
        close: () => store.close(),
      };
    },
  };
}

/**
 * The PostgreSQL subject: one throwaway cluster, a new database per `fresh()`.
 *
 * @example
 * describe.each([sqliteFeatures(), pgFeatures()])('the $name store', (subject) => { … });
 */
export function pgFeatures(): FeatureSubject {
  let cluster: PgCluster | null = null;
  let url = '';
  return {
    name: 'PostgreSQL',
    async setup() {
      cluster = await startPgCluster();
    },
    async teardown() {
      await cluster?.stop();
    },
    async fresh() {
      if (!cluster) throw new Error('no cluster');
      url = await cluster.newDatabase();
    },
    async open() {
      const store = await openPgStore({ url, max: 4, migrations: PG_SERVER_MIGRATIONS });
      const pg = store.pg;
      const media = pgMediaRecords(pg);
      return {
        store,
        analyses: pgAnalysesStore(pg),
        settings: pgAccountSettings(pg),
        faces: pgFaceStore(pg),
        platform: pgPlatformSettings(pg),
        media,
        attempts: pgAttemptStore(pg),
        addMedia: (m) => media.insert(mediaRecord(m)),
        close: () => store.close(),
      };
    },
  };
}

/** A record of `addMedia`'s few fields (one byte of JPEG, stored under its id). */
const mediaRecord = (m: {
  id: string;
  sessionId: string;
  kind: MediaKind;
  createdAt: number;
}): StoredMedia => ({
  ...m,
  accountId: 'acc',
  mode: 'test',
  contentType: 'image/jpeg',
  size: 1,
  storageKey: m.id,
});

/**
 * Creates a session in `store` (its account made when missing).
 *
 * @example
 * const s = await newSession(conn.store, 1, { clientReferenceId: 'user-1' });
 */
export async function newSession(
  store: SessionStore,
  i: number,
  extra: Partial<Pick<SessionRecord, 'clientReferenceId' | 'mode'>> & { account?: string } = {},
): Promise<SessionRecord> {
  const account = await store.ensureAccount(extra.account ?? 'a', 1);
  const id = `sess_${String(i).padStart(4, '0')}`;
  const s = sessionRecord({
    id,
    accountId: account.id,
    mode: extra.mode ?? 'test',
    createdAt: 1000 + i,
    flowId: 'f',
    clientReferenceId: extra.clientReferenceId ?? null,
  });
  await store.createSession(s, secretRecord(id, `cs_${i}`, s.createdAt));
  return s;
}

/**
 * Moves a session to `status` (through `inProgress` for the final ones, as the flow does), the
 * report changed by `report`; returns the stored record.
 *
 * @example
 * await endSession(conn.store, s, 'complete', 5000, { isVerified: true });
 */
export async function endSession(
  store: SessionStore,
  s: SessionRecord,
  status: 'complete' | 'incomplete',
  at: number,
  report: Partial<SessionRecord['report']> = {},
): Promise<SessionRecord> {
  let cur = (await store.getSessionById(s.id)) ?? s;
  if (cur.status === 'created') {
    const started = { ...cur, status: 'inProgress' as const, startedAt: at - 1 };
    cur = (await store.updateSession(cur, started, at - 1)) ?? cur;
  }
  const next = { ...cur, status, finishedAt: at, report: { ...cur.report, ...report } };
  const saved = await store.updateSession(cur, next, at);
  if (!saved) throw new Error(`session ${s.id} changed meanwhile`);
  return saved;
}
