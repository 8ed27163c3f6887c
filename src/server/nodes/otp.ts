/**
 * The one-time codes of `two_factor_email` and `two_factor_sms` nodes (docs/client-api.md): a
 * code is sent to the address or number the session knows (else to the one the page typed),
 * within the session's send limits, and checked with a bounded number of attempts. The node ends
 * `verified`, `failed_unverified` or, when the code could not go out, `delivery_failed`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { OtpSendBodySchema, OtpVerifyBodySchema } from '../../core/api';
import { nodeDefaults, type FlowPosition } from '../../core/flow';
import { ApiError, requireCurrentOf, type SessionRecord, type StepGateway } from '../flow/gateway';
import {
  codeMatches,
  codeMessage,
  generateCode,
  hashCode,
  isEmail,
  maskDestination,
  normalizePhone,
} from '../otp/codes';
import { knownDestination } from '../otp/destinations';
import type { Mailer, OtpCodeStore, OtpSendLimits, OtpSendOutcome, SmsSender } from '../otp/types';
import { sessionLang } from './lang';
import type { NodeRoutes } from './types';

export interface OtpDeps {
  gateway: StepGateway;
  store: OtpCodeStore;
  clock: { now(): number };
  mailer: Mailer;
  sms: SmsSender;
  /** Caps on the codes a session may have sent. */
  otpLimits: OtpSendLimits;
}

const CODE_KINDS = ['two_factor_email', 'two_factor_sms'] as const;

/** A destination typed on the page, for a session that knows none; refused when malformed. */
function pageDestination(channel: 'email' | 'sms', destination: string | undefined): string {
  if (destination === undefined) {
    throw new ApiError(
      'validation_error',
      `destination is required: the session knows no ${channel === 'email' ? 'email address' : 'phone number'}`,
      { code: 'otp_destination_required' },
    );
  }
  const d = destination.trim();
  const to = channel === 'email' ? (isEmail(d) ? d : null) : normalizePhone(d);
  if (!to) {
    throw new ApiError(
      'validation_error',
      channel === 'email'
        ? 'destination must be an email address'
        : 'destination must be a phone number in international form (+33…)',
      { code: 'otp_destination_invalid' },
    );
  }
  return to;
}

/** Why the store refused a code send, as the page is told. */
function sendRefusal(r: Exclude<OtpSendOutcome, { ok: true }>, now: number, nodeId: string) {
  switch (r.reason) {
    case 'too_soon':
      return new ApiError(
        'validation_error',
        `A code was just sent; a new one can be sent in ${Math.ceil((r.retryAt - now) / 1000)} s`,
        { code: 'otp_resend_too_soon' },
      );
    case 'node_limit':
      return new ApiError(
        'validation_error',
        `node '${nodeId}' has sent its ${r.limit} codes; no more can be sent`,
        { code: 'otp_send_limit' },
      );
    case 'session_limit':
      return new ApiError(
        'validation_error',
        `This session has sent its ${r.limit} codes; no more can be sent`,
        { code: 'otp_send_limit' },
      );
    case 'destination_limit':
      return new ApiError(
        'validation_error',
        `This session has sent codes to ${r.limit} different destinations; a new one cannot be used`,
        { code: 'otp_destination_limit' },
      );
  }
}

/**
 * Sends the current code node's code (all zeros in test mode, which delivers nothing). The send's
 * slot is claimed, and its code stored, before it is delivered: concurrent sends find the slot
 * taken, and wrong codes typed meanwhile count against the new code.
 *
 * @example
 * await sendCode(deps, session, 'otp', undefined); // { sentTo: 'j•••@example.com', expiresAt, resendAfter }
 */
export async function sendCode(
  deps: OtpDeps,
  s: SessionRecord,
  nodeId: string,
  destination: string | undefined,
): Promise<
  { sentTo: string; expiresAt: number; resendAfter: number } | { position: FlowPosition }
> {
  const node = requireCurrentOf(s, nodeId, CODE_KINDS, () => `node '${nodeId}' sends no code`);
  const opts = nodeDefaults(node);
  const channel = node.type === 'two_factor_email' ? 'email' : 'sms';
  const now = deps.clock.now();
  const known = knownDestination(s, channel);
  const current = await deps.store.getOtp(s.id, nodeId);
  // A destination the page names replaces one the user typed (a corrected typo); without one, a
  // resend goes where the last code went (the page may have been reloaded and forgotten it).
  const to =
    destination !== undefined && (known === null || known.changeable)
      ? pageDestination(channel, destination)
      : (current?.destination ?? known?.address ?? pageDestination(channel, destination));
  const testMode = s.mode === 'test';
  const code = testMode ? '0'.repeat(opts.otpLength) : generateCode(opts.otpLength);
  const expiresAt = now + opts.expirySeconds * 1000;
  const resendAfterMs = opts.resendAfterSeconds * 1000;
  const claimed = await deps.store.claimOtpSend({
    otp: {
      sessionId: s.id,
      nodeId,
      channel,
      destination: to,
      codeHash: hashCode(s.id, nodeId, code),
      sentAt: now,
      expiresAt,
    },
    chosenByPage: to !== known?.address,
    resendAfterMs,
    limits: deps.otpLimits,
  });
  if (!claimed.ok) throw sendRefusal(claimed, now, nodeId);
  if (!testMode) {
    const template = node.type === 'two_factor_email' ? node.emailTemplate : node.smsTemplate;
    const message = codeMessage({
      code,
      lang: sessionLang(s),
      expirySeconds: opts.expirySeconds,
      ...(template ? { template } : {}),
    });
    try {
      if (channel === 'email') await deps.mailer.send({ to, ...message });
      else await deps.sms.send({ to, text: message.text });
    } catch {
      const saved = await deps.gateway.move(
        s.id,
        nodeId,
        () => ({
          outcome: 'delivery_failed',
          report: { channel, sentTo: maskDestination(to) },
        }),
        { what: 'a code send' },
      );
      return { position: saved.position };
    }
  }
  return { sentTo: maskDestination(to), expiresAt, resendAfter: now + resendAfterMs };
}

/**
 * What the page needs to show the current code node after a reload: whether the user may change
 * the destination here, and the code already sent (masked destination, expiry, resend time and
 * attempts left), or null when none has been.
 *
 * @example
 * await codeState(deps, session, 'otp'); // { changeable: true, sent: { sentTo: 'j•••@example.com', … } }
 */
export async function codeState(
  deps: OtpDeps,
  s: SessionRecord,
  nodeId: string,
): Promise<{
  changeable: boolean;
  sent: { sentTo: string; expiresAt: number; resendAfter: number; attemptsLeft: number } | null;
}> {
  const node = requireCurrentOf(s, nodeId, CODE_KINDS, () => `node '${nodeId}' sends no code`);
  const opts = nodeDefaults(node);
  const known = knownDestination(s, node.type === 'two_factor_email' ? 'email' : 'sms');
  const otp = await deps.store.getOtp(s.id, nodeId);
  return {
    changeable: known === null || known.changeable,
    sent: otp
      ? {
          sentTo: maskDestination(otp.destination),
          expiresAt: otp.expiresAt,
          resendAfter: otp.sentAt + opts.resendAfterSeconds * 1000,
          attemptsLeft: Math.max(0, opts.maxAttempts - otp.attempts),
        }
      : null,
  };
}

/**
 * Checks a typed code against the current code node's, counting the attempt in the same store
 * transaction: the count only grows, whatever races it. A right code ends the node `verified`
 * (and the address becomes data later nodes read); the last wrong one `failed_unverified`.
 *
 * @example
 * await checkCode(deps, session, 'otp', '000000'); // { verified: true, attemptsLeft: 2, position }
 */
export async function checkCode(
  deps: OtpDeps,
  s: SessionRecord,
  nodeId: string,
  code: string,
): Promise<{ verified: boolean; attemptsLeft: number; position: FlowPosition }> {
  const node = requireCurrentOf(s, nodeId, CODE_KINDS, () => `node '${nodeId}' checks no code`);
  const opts = nodeDefaults(node);
  const checked = await deps.store.checkOtp({
    sessionId: s.id,
    nodeId,
    now: deps.clock.now(),
    maxAttempts: opts.maxAttempts,
    matches: (hash) => codeMatches(s.id, nodeId, code, hash),
  });
  if (checked.status === 'not_sent')
    throw new ApiError('validation_error', 'No code has been sent yet', { code: 'otp_not_sent' });
  if (checked.status === 'expired') {
    throw new ApiError('validation_error', 'The code has expired; send a new one', {
      code: 'otp_expired',
    });
  }
  const { ok, attempts, otp } = checked;
  const attemptsLeft = Math.max(0, opts.maxAttempts - attempts);
  const report = {
    channel: otp.channel,
    sentTo: maskDestination(otp.destination),
    attempts: attempts + (ok ? 1 : 0),
  };
  const saved = await deps.gateway.move(
    s.id,
    nodeId,
    (cur, at) => {
      if (!ok && attemptsLeft > 0) return { session: { ...cur, lastActivityAt: at } };
      if (!ok) return { outcome: 'failed_unverified', report };
      // A verified address becomes data later nodes (data_validation) can read.
      const key = otp.channel === 'email' ? 'email' : 'phone';
      const extractedData = { ...(cur.report.extractedData ?? {}), [key]: otp.destination };
      return {
        session: { ...cur, report: { ...cur.report, extractedData } },
        outcome: 'verified',
        report,
      };
    },
    { what: 'a code check' },
  );
  return { verified: ok, attemptsLeft, position: saved.position };
}

/**
 * `POST /client/nodes/:nodeId/otp/send` `{ destination? }`, `GET …/otp` and `POST …/otp/verify`
 * `{ code }`.
 *
 * @example
 * await otpRoutes(scope, ctx, client);
 */
export const otpRoutes: NodeRoutes<OtpDeps> = (app, deps, client) => {
  app.post<{ Params: { nodeId: string }; Body: Static<typeof OtpSendBodySchema> }>(
    '/nodes/:nodeId/otp/send',
    client.route(
      'Send a one-time code',
      OtpSendBodySchema,
      Type.Union([
        Type.Object({
          sentTo: Type.String(),
          expiresAt: Type.Integer(),
          resendAfter: Type.Integer(),
        }),
        client.nodeAnswer(),
      ]),
    ),
    async (request) =>
      sendCode(deps, client.session(request), request.params.nodeId, request.body.destination),
  );
  app.get<{ Params: { nodeId: string } }>(
    '/nodes/:nodeId/otp',
    client.route(
      'The code node as the page shows it after a reload',
      null,
      Type.Object({
        changeable: Type.Boolean(),
        sent: Type.Union([
          Type.Object({
            sentTo: Type.String(),
            expiresAt: Type.Integer(),
            resendAfter: Type.Integer(),
            attemptsLeft: Type.Integer(),
          }),
          Type.Null(),
        ]),
      }),
    ),
    async (request) => codeState(deps, client.session(request), request.params.nodeId),
  );
  app.post<{ Params: { nodeId: string }; Body: Static<typeof OtpVerifyBodySchema> }>(
    '/nodes/:nodeId/otp/verify',
    client.route(
      'Check a one-time code',
      OtpVerifyBodySchema,
      client.nodeAnswer({ verified: Type.Boolean(), attemptsLeft: Type.Integer() }),
    ),
    async (request) =>
      checkCode(deps, client.session(request), request.params.nodeId, request.body.code),
  );
};
