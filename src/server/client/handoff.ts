/**
 * Continue on a phone (docs/client-api.md): the page on a device without a camera (or whose user
 * prefers it) asks for a short link, shown as a QR code; the phone that opens it gets a client
 * token of its own, and the tokens the session had until then may only watch it from then on.
 */
import { randomInt } from 'node:crypto';
import {
  HANDOFF_ALPHABET,
  HANDOFF_CODE_LENGTH,
  HANDOFF_TTL_MS,
  normalizeHandoffCode,
  type HandoffOffer,
  type HandoffStatus,
} from '../../core/api';
import type { Clock } from '../clock';
import { refusalError, requireOpen } from '../flow/gateway';
import { SESSION_ENDED } from '../flow/runtime';
import { ApiError } from '../http/errors';
import { newSecret, sha256Hex } from '../ids';
import type { SessionRecord, SessionStore } from '../store/types';
import { CLIENT_TOKEN_TTL_MS, type ClientAccess, type SessionAnswer } from './access';

export interface HandoffDeps {
  store: SessionStore;
  clock: Clock;
  publicUrl: string;
  access: ClientAccess;
}

export interface Handoffs {
  /** A new link for the session; an earlier unclaimed one dies. */
  offer(s: SessionRecord): Promise<HandoffOffer>;
  /** Where the link and the session stand, for the page that offered it. */
  status(s: SessionRecord): Promise<HandoffStatus>;
  /** The phone spends the link once for a client token of its own. */
  claim(code: string): Promise<SessionAnswer & { token: string }>;
}

/**
 * A random code of `HANDOFF_CODE_LENGTH` characters of `HANDOFF_ALPHABET` (uniform: `randomInt`).
 *
 * @example
 * newHandoffCode(); // 'K7QPX2MZ9RTA'
 */
export function newHandoffCode(): string {
  let code = '';
  for (let i = 0; i < HANDOFF_CODE_LENGTH; i++) {
    code += HANDOFF_ALPHABET[randomInt(HANDOFF_ALPHABET.length)];
  }
  return code;
}

const REFUSALS = {
  invalid: [
    'handoff_invalid',
    'This phone link is not valid; scan the code on your computer again',
  ],
  used: [
    'handoff_used',
    'This phone link has already been opened; ask for a new one on your computer',
  ],
  expired: ['handoff_expired', 'This phone link has expired; ask for a new one on your computer'],
} as const;

const ended = () => refusalError({ reason: 'finished', message: SESSION_ENDED });

/**
 * The hand-off service over the store.
 *
 * @example
 * const handoffs = clientHandoffs({ store, clock, publicUrl, access });
 * const { url } = await handoffs.offer(session); // 'https://idv.example/p/K7QPX2MZ9RTA'
 */
export function clientHandoffs(deps: HandoffDeps): Handoffs {
  const { store, clock } = deps;
  return {
    async offer(s) {
      requireOpen(s);
      const code = newHandoffCode();
      const now = clock.now();
      const expiresAt = now + HANDOFF_TTL_MS;
      const r = await store.offerHandoff({
        codeHash: sha256Hex(code),
        sessionId: s.id,
        createdAt: now,
        expiresAt,
      });
      // Finished between the token check and here: the same refusal as any late step.
      if (r === 'finished') throw ended();
      return { code, url: `${deps.publicUrl}/p/${code}`, expiresAt };
    },

    async status(s) {
      const h = await store.latestHandoff(s.id);
      const state: HandoffStatus['state'] = !h
        ? 'none'
        : h.claimedAt !== null
          ? 'claimed'
          : h.revokedAt !== null || h.expiresAt <= clock.now()
            ? 'expired'
            : 'offered';
      return { state, expiresAt: h?.expiresAt ?? null, position: s.position };
    },

    async claim(code) {
      const token = newSecret('ct');
      const now = clock.now();
      const r = await store.claimHandoff({
        codeHash: sha256Hex(normalizeHandoffCode(code)),
        now,
        token: { hash: sha256Hex(token), expiresAt: now + CLIENT_TOKEN_TTL_MS },
      });
      if (!r.ok) {
        if (r.reason === 'finished') throw ended();
        const [errCode, message] = REFUSALS[r.reason];
        throw new ApiError('authentication_error', message, { code: errCode });
      }
      return { token, ...(await deps.access.answer(r.session)) };
    },
  };
}
