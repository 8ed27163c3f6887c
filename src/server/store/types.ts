import type {
  StoredReport,
  SessionSettings,
  SessionStatus,
  SortKey,
  SortOrder,
} from '../../core/api';
import type { Flow, FlowPosition, LegacyModule } from '../../core/flow';

/** Test and live data never meet: every session, key and event belongs to one mode. */
export type Mode = 'test' | 'live';

/** Whose data a request may see: one account in one mode. */
export interface Scope {
  accountId: string;
  mode: Mode;
}

export interface Account {
  id: string;
  name: string;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  accountName: string;
  mode: Mode;
  /** The first characters of the key, kept to name it in `idv keys list` / `revoke`. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  createdAt: number;
  revokedAt: number | null;
}

/** The settings as stored: the flow typed by the core. */
export type StoredSettings = Omit<SessionSettings, 'flow' | 'modules'> & {
  flow: Flow;
  modules?: LegacyModule[];
};

export interface SessionRecord {
  id: string;
  accountId: string;
  mode: Mode;
  status: SessionStatus;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** Last time the user did anything; the idle timeout counts from here. */
  lastActivityAt: number;
  flowId: string;
  clientReferenceId: string | null;
  version: string;
  settings: StoredSettings;
  report: StoredReport;
  position: FlowPosition;
  /** Row version for optimistic concurrency; the store bumps it on every update. */
  rev: number;
}

export interface ClientSecretRecord {
  secret: string;
  sessionId: string;
  createdAt: number;
  expireAt: number;
  usedAt: number | null;
  /** Set when a refresh replaced it. */
  revokedAt: number | null;
}

export interface ClientTokenRecord {
  /** SHA-256 of the token, hex. */
  hash: string;
  sessionId: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** Set when the session moved to a phone: the token may watch the session, not act on it. */
  movedAt: number | null;
}

/** A link that moves a session to a phone (docs/client-api.md, "Continue on a phone"). */
export interface HandoffRecord {
  /** SHA-256 of the link's code, hex. The code itself is never stored. */
  codeHash: string;
  sessionId: string;
  createdAt: number;
  expiresAt: number;
  claimedAt: number | null;
  /** Set when a newer link replaced it before it was claimed. */
  revokedAt: number | null;
}

export type HandoffClaimOutcome =
  | { ok: true; session: SessionRecord }
  | { ok: false; reason: 'invalid' | 'used' | 'expired' | 'finished' };

export interface HandoffClaimInput {
  codeHash: string;
  now: number;
  /** The phone's client token. */
  token: { hash: string; expiresAt: number };
}

export interface OtpRecord {
  sessionId: string;
  nodeId: string;
  channel: 'email' | 'sms';
  destination: string;
  /** SHA-256 of session id, node id and code. */
  codeHash: string;
  sentAt: number;
  expiresAt: number;
  attempts: number;
}

/** The caps a code send is checked against (docs/decisions.md, "Codes"). */
export interface OtpSendLimits {
  /** Codes sent for one node, resends included. */
  perNode: number;
  /** Codes sent for one session, all its nodes together. */
  perSession: number;
  /** Different destinations the page may choose (typed by the user) in one session. */
  destinationsPerSession: number;
}

/** A code about to be delivered: its slot is claimed (and the code stored) before delivery. */
export interface OtpSendClaim {
  otp: Omit<OtpRecord, 'attempts'>;
  /** The page supplied the destination (the session knew none). */
  chosenByPage: boolean;
  /** No new code before this long after the last one. */
  resendAfterMs: number;
  limits: OtpSendLimits;
}

export type OtpSendOutcome =
  | { ok: true }
  | { ok: false; reason: 'too_soon'; retryAt: number }
  | { ok: false; reason: 'node_limit' | 'session_limit' | 'destination_limit'; limit: number };

export interface OtpCheckInput {
  sessionId: string;
  nodeId: string;
  now: number;
  /** Wrong codes allowed; once reached, no code is compared any more. */
  maxAttempts: number;
  /** Pure: whether the typed code is the one this stored hash stands for. */
  matches: (codeHash: string) => boolean;
}

export type OtpCheckOutcome =
  | { status: 'not_sent' }
  | { status: 'expired' }
  /** `attempts` wrong codes so far, this one included; `ok` is false when they were exhausted. */
  | { status: 'checked'; ok: boolean; attempts: number; otp: OtpRecord };

export interface EventRecord {
  id: string;
  accountId: string;
  mode: Mode;
  type: string;
  /** `''` for account-wide (`settings.*`) events. */
  sessionId: string;
  createdAt: number;
  /** The exact JSON body a webhook delivery sends. */
  payload: string;
}

export interface AvatarRecord {
  id: string;
  name: string;
  gender: 'male' | 'female' | 'unknown';
  /** Absolute, or a path on this service such as `/avatars/nova.svg`. */
  imageUrl: string;
  createdAt: number;
}

export interface LangRecord {
  id: string;
  title: string;
}

/** Where a page starts: after the row with these sort values (opaque to callers). */
export interface CursorKey {
  sortBy: SortKey;
  sortOrder: SortOrder;
  /** The sort values of the last row of the previous page; `null` means from the start. */
  after: (string | number)[] | null;
}

export interface ListQuery {
  limit: number;
  sortBy: SortKey;
  sortOrder: SortOrder;
  after: (string | number)[] | null;
  flowId?: string;
  clientReferenceId?: string;
  statuses?: SessionStatus[];
  fromDate?: number;
  toDate?: number;
  /** Lower-cased already. */
  search?: string;
  includeTotal: boolean;
}

export interface ListPage {
  sessions: SessionRecord[];
  /** Sort values after which the next page starts, when there is one. */
  next: (string | number)[] | null;
  hasMore: boolean;
  totalCount?: number;
}

export type ExchangeOutcome =
  { ok: true; session: SessionRecord } | { ok: false; reason: 'invalid' | 'used' | 'expired' };

export interface ExchangeInput {
  secret: string;
  now: number;
  token: { hash: string; expiresAt: number };
  /** Pure: the session after the first opening (status, startedAt, device, …). */
  apply: (session: SessionRecord) => SessionRecord;
  /**
   * Pure: the session ended, when a timeout has passed that the sweeper has not handled yet;
   * `null` otherwise. The end is stored and the secret refused as `expired`.
   */
  expire?: (session: SessionRecord) => SessionRecord | null;
}

/** Accounts and their API keys (`idv keys …`, and every API request's key). */
export interface AccountStore {
  ensureAccount(name: string, now: number): Promise<Account>;
  findAccount(name: string): Promise<Account | null>;
  countAccounts(): Promise<number>;

  insertApiKey(key: Omit<ApiKeyRecord, 'accountName' | 'revokedAt'>): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** Revokes the one key whose prefix starts with `prefix`; refuses an ambiguous prefix. */
  revokeApiKey(
    prefix: string,
    now: number,
  ): Promise<{ revoked: ApiKeyRecord } | { error: 'none' | 'ambiguous'; matches: ApiKeyRecord[] }>;
}

/** Sessions: their creation, reads, pages and optimistic updates. */
export interface SessionRecordStore {
  /** Inserts the session, its first client secret and its `created` event. */
  createSession(session: SessionRecord, secret: ClientSecretRecord): Promise<void>;
  getSession(scope: Scope, id: string): Promise<SessionRecord | null>;
  /**
   * A session and its latest client secret, in one read. The same object may be returned again
   * until the session changes (callers must not mutate it; they may cache by its identity).
   */
  getSessionWithSecret(
    scope: Scope,
    id: string,
  ): Promise<{ session: SessionRecord; secret: ClientSecretRecord | null } | null>;
  /** By id alone, for the client side, which has already proved its right to the session. */
  getSessionById(id: string): Promise<SessionRecord | null>;
  listSessions(scope: Scope, query: ListQuery): Promise<ListPage>;
  /**
   * Writes `next` if the stored row is still `prev` (same `rev`); returns the stored record, or
   * null when someone else changed it first. Writes `session.status` when the status changed.
   */
  updateSession(
    prev: SessionRecord,
    next: SessionRecord,
    now: number,
  ): Promise<SessionRecord | null>;
  /** Sessions that a timeout should end: `created` made before, or `inProgress` idle since. */
  listTimedOut(createdBefore: number, idleBefore: number, limit: number): Promise<SessionRecord[]>;
}

/** A session's client secrets and the client tokens they are exchanged for. */
export interface SecretStore {
  /** The session a client secret (used or not) belongs to. */
  getSessionBySecret(secret: string): Promise<SessionRecord | null>;
  getLatestClientSecret(sessionId: string): Promise<ClientSecretRecord | null>;
  /**
   * Replaces every earlier secret and client token of an unfinished session with `secret`.
   * Refused when the session is unknown in `scope` or already finished; `expire` (as in
   * `ExchangeInput`) ends, in the same transaction, a session past a timeout, which is then
   * refused as finished.
   */
  refreshClientSecret(
    scope: Scope,
    sessionId: string,
    secret: ClientSecretRecord,
    expire?: (session: SessionRecord) => SessionRecord | null,
  ): Promise<'ok' | 'not_found' | 'finished'>;
  /** Spends a client secret once, issues the client token and applies the first opening. */
  exchangeClientSecret(input: ExchangeInput): Promise<ExchangeOutcome>;
  findClientToken(hash: string): Promise<ClientTokenRecord | null>;
}

/** The links that move a session to a phone, and their claims. */
export interface HandoffStore {
  /**
   * Stores a new link for an unfinished session; every earlier unclaimed link of it dies.
   * Refused when the session is unknown or finished.
   */
  offerHandoff(offer: Omit<HandoffRecord, 'claimedAt' | 'revokedAt'>): Promise<'ok' | 'finished'>;
  /** The session's newest link, claimed or not. */
  latestHandoff(sessionId: string): Promise<HandoffRecord | null>;
  /**
   * Spends a link once, in one transaction: the link is marked, every client token of the session
   * is marked moved (it may still watch), and the phone's token is issued. Of two claims of one
   * link, exactly one succeeds; the other is `used`.
   */
  claimHandoff(input: HandoffClaimInput): Promise<HandoffClaimOutcome>;
}

/** The one-time codes of a session's nodes and the sends counted against its caps. */
export interface OtpStore {
  getOtp(sessionId: string, nodeId: string): Promise<OtpRecord | null>;
  /**
   * Before a code is delivered: checks the resend wait and the caps, then stores the new code
   * and counts the send, all at once, so concurrent sends cannot all pass. The wrong attempts of
   * the node are kept (they count across resends).
   */
  claimOtpSend(claim: OtpSendClaim): Promise<OtpSendOutcome>;
  /** Compares a typed code and counts a wrong one, at once: the attempt count only grows. */
  checkOtp(input: OtpCheckInput): Promise<OtpCheckOutcome>;
}

/** The outbox: every event in the order written, for webhooks and inspection. */
export interface EventStore {
  appendEvent(event: EventRecord): Promise<void>;
  /** Events in the order they were written, after the given sequence number. */
  listEvents(options: {
    after?: number;
    limit?: number;
    sessionId?: string;
  }): Promise<(EventRecord & { seq: number })[]>;
}

/**
 * The answer a `POST /sessions` gave under an `Idempotency-Key` (docs/api.md, "Retrying a create
 * safely"), kept 24 hours so that a retry with the same key gets it again instead of a second
 * session.
 */
export interface IdempotencyRecord {
  accountId: string;
  mode: Mode;
  key: string;
  /** SHA-256 of the request's version and canonical body: a retry must send the same. */
  requestHash: string;
  /** The session the answer describes; it is stored just after this record. */
  sessionId: string;
  status: number;
  /** The exact JSON body that was sent. */
  body: string;
  createdAt: number;
  /** After this the key is free again. */
  expiresAt: number;
}

export type IdempotencyPutOutcome =
  { stored: true } | { stored: false; existing: IdempotencyRecord };

/** The answers of creates made under an `Idempotency-Key`, per account and mode. */
export interface IdempotencyStore {
  /** The record of `key` in `scope` that has not expired at `now`, or null. */
  findIdempotencyKey(scope: Scope, key: string, now: number): Promise<IdempotencyRecord | null>;
  /**
   * Stores `record` unless a record of the same key that has not expired at `now` holds it, in
   * one transaction: of two concurrent puts of one key exactly one is stored, and the other gets
   * the stored one back.
   */
  putIdempotencyKey(record: IdempotencyRecord, now: number): Promise<IdempotencyPutOutcome>;
  /** Forgets the key's record if it still names `sessionId` (its create failed, or never ran). */
  dropIdempotencyKey(scope: Scope, key: string, sessionId: string): Promise<void>;
  /** Deletes up to `limit` records expired at `now`; returns how many. */
  purgeIdempotencyKeys(now: number, limit: number): Promise<number>;
}

/** What erasing a session needs (docs/lifecycle.md, "Erasing a session"). */
export interface EraseInput {
  scope: Scope;
  sessionId: string;
  now: number;
  /** Pure: an unfinished session as it ends before its erasure (returned as is when finished). */
  end: (session: SessionRecord) => SessionRecord;
  /**
   * The features' rows of the session (media records, attempts, face entries, …), erased
   * synchronously inside the same transaction; it receives the tombstone.
   */
  alsoErase?: (tombstone: SessionRecord) => void;
  /** The `session.erased` event's id (default: a new one). */
  eventId?: string;
}

export type EraseOutcome =
  /** `erased` is false when the session was a tombstone already (nothing changed). */
  { ok: true; session: SessionRecord; erased: boolean } | { ok: false; reason: 'not_found' };

/**
 * Erasure and what the session retention erases, on SQLite (`sqliteErasure`); PostgreSQL's twin is
 * `PgErasure` (its features' part runs on the transaction: docs/lifecycle.md).
 */
export interface SessionErasureStore {
  /**
   * Replaces the session by its tombstone (`tombstoneOf`), ending it first when unfinished,
   * deletes its tokens, codes, hand-offs and idempotent answers, runs `alsoErase`, and appends
   * `session.erased`: one transaction. A tombstone is left as it is.
   */
  eraseSession(input: EraseInput): Promise<EraseOutcome>;
  /** Finished sessions not erased yet that ended before `endedBefore`, the oldest first. */
  listEndedBefore(
    endedBefore: number,
    limit: number,
  ): Promise<{ scope: Scope; sessionId: string }[]>;
}

/** The avatars and languages sessions may name. */
export interface CatalogStore {
  listAvatars(): Promise<AvatarRecord[]>;
  getAvatar(id: string): Promise<AvatarRecord | null>;
  upsertAvatar(avatar: AvatarRecord): Promise<void>;
  deleteAvatar(id: string): Promise<boolean>;
  listLangs(): Promise<LangRecord[]>;
}

/**
 * Everything the service keeps, one interface per concern. Every method is one transaction; SQL
 * lives only behind these interfaces (SQLite today, PostgreSQL fits the same shape: nothing here
 * names a driver's type). A status change of a session and its `session.status` event are
 * written together or not at all.
 */
export type SessionStore = AccountStore &
  SessionRecordStore &
  SecretStore &
  HandoffStore &
  OtpStore &
  EventStore &
  IdempotencyStore &
  CatalogStore & {
    close(): Promise<void>;
  };
