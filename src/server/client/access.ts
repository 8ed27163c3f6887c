/**
 * How the hosted page gets at its session (docs/client-api.md): the client secret spent once for a
 * client token, the session a token opens (ended first when a timeout has passed), what the page
 * may see of it, its language, and the user's exit. The node routes live with their kinds
 * (`src/server/nodes/`), the page's outcomes in `results.ts`.
 */
import type { PublicSessionShape } from '../../core/api';
import type { FlowPosition } from '../../core/flow';
import type { Clock } from '../clock';
import { requireOpen, type StepGateway } from '../flow/gateway';
import { endIncomplete } from '../flow/runtime';
import { ApiError } from '../http/errors';
import { newSecret, sha256Hex } from '../ids';
import { expireIfTimedOut, type SessionTimeouts } from '../sessions/timeouts';
import type { SessionRecord, SessionStore } from '../store/types';
import { parseDevice } from './device';
import type { GeoLookup } from './geo';
import { publicSession } from './public';

/** A client token lives as long as any session could: the 24 h of an unopened one. */
export const CLIENT_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export interface SessionAnswer {
  session: PublicSessionShape;
  position: FlowPosition;
}

export interface ClientAccessDeps {
  store: SessionStore;
  clock: Clock;
  gateway: StepGateway;
  geo: GeoLookup;
  publicUrl: string;
  timeouts: SessionTimeouts;
}

export interface ClientAccess {
  /** Spends the secret once; the first opening starts the session. */
  exchange(input: {
    clientSecret: string;
    ip: string;
    userAgent: string | undefined;
  }): Promise<SessionAnswer & { token: string }>;
  /** The session a client token opens, ended first if a timeout has passed. */
  sessionOf(token: string): Promise<SessionRecord>;
  /** The same, and whether the session has moved to a phone since the token was issued. */
  tokenSession(token: string): Promise<{ session: SessionRecord; moved: boolean }>;
  /** What the page may see of the session, and where it stands. */
  answer(s: SessionRecord): Promise<SessionAnswer>;
  /** Records the page's language. */
  setLang(s: SessionRecord, lang: string): Promise<{ lang: string }>;
  /** The user leaves: the session ends `incomplete`. */
  exit(s: SessionRecord): Promise<{ position: FlowPosition }>;
}

const invalidToken = () =>
  new ApiError('authentication_error', 'Invalid client token', { code: 'client_token_invalid' });

/**
 * The page's access to its session over the app's store.
 *
 * @example
 * const access = clientAccess(ctx);
 * const { token } = await access.exchange({ clientSecret, ip: '127.0.0.1', userAgent: undefined });
 */
export function clientAccess(deps: ClientAccessDeps): ClientAccess {
  const { store, clock, gateway, timeouts } = deps;

  async function answer(s: SessionRecord): Promise<SessionAnswer> {
    const avatarId = s.settings.avatarId;
    let avatar = avatarId ? await store.getAvatar(avatarId) : null;
    // Without a chosen avatar the page shows the first of the list.
    if (!avatarId) avatar = (await store.listAvatars())[0] ?? null;
    return { session: publicSession(s, avatar, deps.publicUrl), position: s.position };
  }

  async function tokenSession(token: string) {
    const t = await store.findClientToken(sha256Hex(token));
    const now = clock.now();
    if (!t || t.revokedAt !== null || t.expiresAt <= now) throw invalidToken();
    const s = await store.getSessionById(t.sessionId);
    if (!s) throw invalidToken();
    const moved = t.movedAt !== null;
    if (expireIfTimedOut(s, now, timeouts)) {
      const session = await gateway.mutate(
        s.id,
        (cur, at) => expireIfTimedOut(cur, at, timeouts) ?? cur,
        { what: 'a client request' },
      );
      return { session, moved };
    }
    return { session: s, moved };
  }

  return {
    answer,

    async exchange(input) {
      const token = newSecret('ct');
      const now = clock.now();
      const location = await deps.geo(input.ip).catch(() => ({}));
      const device = parseDevice(input.userAgent);
      const r = await store.exchangeClientSecret({
        secret: input.clientSecret,
        now,
        token: { hash: sha256Hex(token), expiresAt: now + CLIENT_TOKEN_TTL_MS },
        apply: (s) => gateway.open(s, now, s.report.device ? {} : { device, location }),
        // Past its unopened (or idle) limit a session cannot be opened, swept or not.
        expire: (s) => expireIfTimedOut(s, now, timeouts),
      });
      if (!r.ok) {
        const messages = {
          invalid: 'This verification link is not valid',
          used: 'This verification link has already been opened; ask for a new one',
          expired: 'This verification link has expired; ask for a new one',
        } as const;
        throw new ApiError('authentication_error', messages[r.reason], {
          code: `client_secret_${r.reason}`,
        });
      }
      return { token, ...(await answer(r.session)) };
    },

    tokenSession,

    async sessionOf(token) {
      return (await tokenSession(token)).session;
    },

    // Like reading a prompt or asking for a code, choosing a language is not activity
    // (decisions.md, "States and their end"): repeated, it must not keep a session alive for ever.
    async setLang(s, lang) {
      if (!s.settings.langs.includes(lang)) {
        throw new ApiError(
          'validation_error',
          `lang must be one of the session's languages: ${s.settings.langs.join(', ')}`,
        );
      }
      await gateway.mutate(
        s.id,
        (cur) => {
          requireOpen(cur);
          return cur.report.lang === lang ? cur : { ...cur, report: { ...cur.report, lang } };
        },
        { what: 'a client request' },
      );
      return { lang };
    },

    async exit(s) {
      const saved = await gateway.mutate(s.id, (cur, now) => endIncomplete(cur, now), {
        what: 'a client request',
      });
      return { position: saved.position };
    },
  };
}
