/**
 * The client side of a session (docs/client-api.md): what the hosted page may do with its client
 * token. The server is the authority: every outcome goes through `step`, which the compiled
 * machine checks; user-decided outcomes are limited per node type (any outcome in test mode).
 */
import {
  outcomesOf,
  nodeDefaults,
  USER_OUTCOMES,
  type FlowNode,
  type FlowPosition,
} from '../../core/flow';
import type { PublicSessionShape } from '../../core/api';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { newId, newSecret, sha256Hex } from '../ids';
import {
  codeMatches,
  codeMessage,
  generateCode,
  hashCode,
  isEmail,
  maskDestination,
  normalizePhone,
} from '../otp/codes';
import {
  currentNode,
  endIncomplete,
  isFinished,
  open,
  step,
  type StepRefusal,
} from '../flow/runtime';
import { mutateSession } from '../sessions/mutate';
import { expireIfTimedOut } from '../sessions/timeouts';
import type { OtpSendOutcome, SessionRecord } from '../store/types';
import { parseDevice } from './device';
import { knownEmail, knownPhone, publicSession } from './public';

/** A client token lives as long as any session could: the 24 h of an unopened one. */
export const CLIENT_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

const MAX_REPORT_BYTES = 16 * 1024;

export interface SessionAnswer {
  session: PublicSessionShape;
  position: FlowPosition;
}

function refusal(r: StepRefusal): ApiError {
  const code =
    r.reason === 'finished'
      ? 'session_finished'
      : r.reason === 'not_current_node'
        ? 'node_not_current'
        : 'outcome_unknown';
  return new ApiError('validation_error', r.message, { code });
}

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

const finished = () =>
  new ApiError('validation_error', 'The session has already ended', { code: 'session_finished' });

export class ClientService {
  constructor(private readonly ctx: AppContext) {}

  private now(): number {
    return this.ctx.clock.now();
  }

  /**
   * Applies `change` to the freshest copy of the session and stores it, retrying when someone
   * else wrote in between; `change` throws to refuse.
   */
  async mutate(
    sessionId: string,
    change: (s: SessionRecord, now: number) => SessionRecord,
  ): Promise<SessionRecord> {
    return mutateSession(this.ctx.store, this.ctx.clock, sessionId, change, {
      what: 'a client request',
    });
  }

  async answer(s: SessionRecord): Promise<SessionAnswer> {
    const avatarId = s.settings.avatarId;
    let avatar = avatarId ? await this.ctx.store.getAvatar(avatarId) : null;
    // Without a chosen avatar the page shows the first of the list.
    if (!avatarId) avatar = (await this.ctx.store.listAvatars())[0] ?? null;
    return { session: publicSession(s, avatar, this.ctx.publicUrl), position: s.position };
  }

  /** Spends the secret once; the first opening starts the session. */
  async exchange(input: {
    clientSecret: string;
    ip: string;
    userAgent: string | undefined;
  }): Promise<SessionAnswer & { token: string }> {
    const token = newSecret('ct');
    const now = this.now();
    const location = await this.ctx.geo(input.ip).catch(() => ({}));
    const device = parseDevice(input.userAgent);
    const r = await this.ctx.store.exchangeClientSecret({
      secret: input.clientSecret,
      now,
      token: { hash: sha256Hex(token), expiresAt: now + CLIENT_TOKEN_TTL_MS },
      apply: (s) => open(s, now, s.report.device ? {} : { device, location }),
      // Past its unopened (or idle) limit a session cannot be opened, swept or not.
      expire: (s) => expireIfTimedOut(s, now, this.ctx.timeouts),
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
    return { token, ...(await this.answer(r.session)) };
  }

  /**
   * The session a client token opens, ended first if a timeout has passed that the sweeper has
   * not handled yet.
   */
  async sessionOf(token: string): Promise<SessionRecord> {
    const t = await this.ctx.store.findClientToken(sha256Hex(token));
    const now = this.now();
    if (!t || t.revokedAt !== null || t.expiresAt <= now) {
      throw new ApiError('authentication_error', 'Invalid client token', {
        code: 'client_token_invalid',
      });
    }
    const s = await this.ctx.store.getSessionById(t.sessionId);
    if (!s)
      throw new ApiError('authentication_error', 'Invalid client token', {
        code: 'client_token_invalid',
      });
    if (expireIfTimedOut(s, now, this.ctx.timeouts)) {
      return this.mutate(s.id, (cur, at) => expireIfTimedOut(cur, at, this.ctx.timeouts) ?? cur);
    }
    return s;
  }

  /**
   * Records the page's language. Like reading a prompt or asking for a code, this is not activity
   * (decisions.md, "States and their end"): repeated, it must not keep a session alive for ever.
   */
  async setLang(s: SessionRecord, lang: string): Promise<{ lang: string }> {
    if (!s.settings.langs.includes(lang)) {
      throw new ApiError(
        'validation_error',
        `lang must be one of the session's languages: ${s.settings.langs.join(', ')}`,
      );
    }
    await this.mutate(s.id, (cur) => {
      if (isFinished(cur)) throw finished();
      return cur.report.lang === lang ? cur : { ...cur, report: { ...cur.report, lang } };
    });
    return { lang };
  }

  private requireCurrent(s: SessionRecord, nodeId: string): FlowNode {
    if (isFinished(s) || s.position.status !== 'active') throw finished();
    const node = currentNode(s);
    if (!node || node.id !== nodeId) {
      throw new ApiError(
        'validation_error',
        `node '${nodeId}' is not the current node; the current node is '${s.position.nodeId}'`,
        { code: 'node_not_current' },
      );
    }
    return node;
  }

  private lang(s: SessionRecord): string {
    return s.report.lang ?? s.settings.defaultLang;
  }

  async prompt(s: SessionRecord, nodeId: string): Promise<{ text: string }> {
    const node = this.requireCurrent(s, nodeId);
    const prompt = 'prompt' in node ? node.prompt : undefined;
    if (typeof prompt !== 'string' || prompt.trim() === '') return { text: '' };
    const text = await this.ctx.renderer.render({ prompt, lang: this.lang(s) });
    await this.mutate(s.id, (cur, now) => {
      this.requireCurrent(cur, nodeId);
      const last = [...cur.report.transcript]
        .reverse()
        .find((t) => t.nodeId === nodeId && t.isAvatar);
      if (last && last.text === text) return cur;
      const item = { id: newId('tr', 8), createdAt: now, text, isAvatar: true, nodeId };
      return { ...cur, report: { ...cur.report, transcript: [...cur.report.transcript, item] } };
    });
    return { text };
  }

  async reply(
    s: SessionRecord,
    nodeId: string,
    text: string | undefined,
  ): Promise<{ outcome: string | null; position: FlowPosition }> {
    const node = this.requireCurrent(s, nodeId);
    if (node.type !== 'conversation') {
      throw new ApiError(
        'validation_error',
        `node '${nodeId}' is a ${node.type} node; replies go to conversation nodes`,
        { code: 'outcome_not_allowed' },
      );
    }
    const conv = nodeDefaults(node);
    const reply = (text ?? '').trim();
    if (!conv.doesNotRequireReply && reply === '') {
      throw new ApiError('validation_error', 'text is required: this node waits for a reply');
    }
    const conditions = conv.outcomes.map((o) => o.condition ?? '');
    let index = await this.ctx.evaluator.choose({
      conditions,
      reply,
      lang: this.lang(s),
      prompt: conv.prompt,
    });
    // A node that does not wait for a reply always moves on, along its first outcome at worst.
    if (index === null && conv.doesNotRequireReply && conv.outcomes.length > 0) index = 0;
    const outcome = index === null ? null : (conv.outcomes[index]?.id ?? null);
    const saved = await this.mutate(s.id, (cur, now) => {
      this.requireCurrent(cur, nodeId);
      let next = cur;
      if (reply !== '') {
        const item = { id: newId('tr', 8), createdAt: now, text: reply, isAvatar: false, nodeId };
        next = {
          ...next,
          report: { ...next.report, transcript: [...next.report.transcript, item] },
        };
      }
      next = { ...next, lastActivityAt: now };
      if (outcome === null) return next;
      const r = step(next, { nodeId, outcome, report: { reply } }, now);
      if (!r.ok) throw refusal(r);
      return r.session;
    });
    return { outcome, position: saved.position };
  }

  async result(
    s: SessionRecord,
    nodeId: string,
    outcome: string,
    report: Record<string, unknown> | undefined,
  ): Promise<{ position: FlowPosition }> {
    const node = this.requireCurrent(s, nodeId);
    const known = outcomesOf(node);
    if (!known.includes(outcome)) {
      throw new ApiError(
        'validation_error',
        `'${outcome}' is not an outcome of the ${node.type} node '${nodeId}'; its outcomes are ${known.join(', ')}`,
        { code: 'outcome_unknown' },
      );
    }
    const testMode = s.mode === 'test';
    if (!testMode && !(USER_OUTCOMES[node.type] ?? []).includes(outcome)) {
      throw new ApiError(
        'validation_error',
        `'${outcome}' of a ${node.type} node is decided by the server, not reported by the page`,
        { code: 'outcome_not_allowed' },
      );
    }
    if (report && Buffer.byteLength(JSON.stringify(report)) > MAX_REPORT_BYTES) {
      throw new ApiError('validation_error', `report is larger than ${MAX_REPORT_BYTES} bytes`);
    }
    let nodeReport = report;
    let email: string | undefined;
    if (outcome === 'emailEntered') {
      const raw = report?.['email'];
      if (typeof raw === 'string' && isEmail(raw.trim())) email = raw.trim();
      else if (!testMode || raw !== undefined) {
        throw new ApiError('validation_error', 'report.email must be a valid email address');
      }
      nodeReport = { ...(report ?? {}), ...(email ? { email } : {}) };
    }
    const saved = await this.mutate(s.id, (cur, now) => {
      this.requireCurrent(cur, nodeId);
      let next = cur;
      if (email) {
        next = {
          ...next,
          report: {
            ...next.report,
            extractedData: { ...(next.report.extractedData ?? {}), email },
          },
        };
      }
      const r = step(next, { nodeId, outcome, ...(nodeReport ? { report: nodeReport } : {}) }, now);
      if (!r.ok) throw refusal(r);
      return r.session;
    });
    return { position: saved.position };
  }

  async otpSend(
    s: SessionRecord,
    nodeId: string,
    destination: string | undefined,
  ): Promise<
    { sentTo: string; expiresAt: number; resendAfter: number } | { position: FlowPosition }
  > {
    const node = this.requireCurrent(s, nodeId);
    if (node.type !== 'two_factor_email' && node.type !== 'two_factor_sms') {
      throw new ApiError('validation_error', `node '${nodeId}' sends no code`, {
        code: 'outcome_not_allowed',
      });
    }
    const opts = nodeDefaults(node);
    const channel = node.type === 'two_factor_email' ? 'email' : 'sms';
    const now = this.now();
    const known = channel === 'email' ? knownEmail(s) : knownPhone(s);
    const to = known ?? pageDestination(channel, destination);
    const testMode = s.mode === 'test';
    const code = testMode ? '0'.repeat(opts.otpLength) : generateCode(opts.otpLength);
    const expiresAt = now + opts.expirySeconds * 1000;
    const resendAfterMs = opts.resendAfterSeconds * 1000;
    // The send's slot is claimed, and its code stored, before it is delivered: concurrent sends
    // find the slot taken, and wrong codes typed meanwhile count against the new code.
    const claimed = await this.ctx.store.claimOtpSend({
      otp: {
        sessionId: s.id,
        nodeId,
        channel,
        destination: to,
        codeHash: hashCode(s.id, nodeId, code),
        sentAt: now,
        expiresAt,
      },
      chosenByPage: known === null,
      resendAfterMs,
      limits: this.ctx.otpLimits,
    });
    if (!claimed.ok) throw sendRefusal(claimed, now, nodeId);
    if (!testMode) {
      const message = codeMessage({
        code,
        lang: this.lang(s),
        expirySeconds: opts.expirySeconds,
        ...(channel === 'email'
          ? node.type === 'two_factor_email' && node.emailTemplate
            ? { template: node.emailTemplate }
            : {}
          : node.type === 'two_factor_sms' && node.smsTemplate
            ? { template: node.smsTemplate }
            : {}),
      });
      try {
        if (channel === 'email') await this.ctx.mailer.send({ to, ...message });
        else await this.ctx.sms.send({ to, text: message.text });
      } catch {
        const saved = await this.mutate(s.id, (cur, at) => {
          this.requireCurrent(cur, nodeId);
          const r = step(
            cur,
            {
              nodeId,
              outcome: 'delivery_failed',
              report: { channel, sentTo: maskDestination(to) },
            },
            at,
          );
          if (!r.ok) throw refusal(r);
          return r.session;
        });
        return { position: saved.position };
      }
    }
    return { sentTo: maskDestination(to), expiresAt, resendAfter: now + resendAfterMs };
  }

  async otpVerify(
    s: SessionRecord,
    nodeId: string,
    code: string,
  ): Promise<{ verified: boolean; attemptsLeft: number; position: FlowPosition }> {
    const node = this.requireCurrent(s, nodeId);
    if (node.type !== 'two_factor_email' && node.type !== 'two_factor_sms') {
      throw new ApiError('validation_error', `node '${nodeId}' checks no code`, {
        code: 'outcome_not_allowed',
      });
    }
    const opts = nodeDefaults(node);
    // Compared and counted in one store transaction: the count only grows, whatever races it.
    const checked = await this.ctx.store.checkOtp({
      sessionId: s.id,
      nodeId,
      now: this.now(),
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
    const saved = await this.mutate(s.id, (cur, at) => {
      this.requireCurrent(cur, nodeId);
      if (!ok && attemptsLeft > 0) return { ...cur, lastActivityAt: at };
      const outcome = ok ? 'verified' : 'failed_unverified';
      // A verified address becomes data later nodes (data_validation) can read.
      const base: SessionRecord = ok
        ? {
            ...cur,
            report: {
              ...cur.report,
              extractedData: {
                ...(cur.report.extractedData ?? {}),
                [otp.channel === 'email' ? 'email' : 'phone']: otp.destination,
              },
            },
          }
        : cur;
      const r = step(base, { nodeId, outcome, report }, at);
      if (!r.ok) throw refusal(r);
      return r.session;
    });
    return { verified: ok, attemptsLeft, position: saved.position };
  }

  async exit(s: SessionRecord): Promise<{ position: FlowPosition }> {
    const saved = await this.mutate(s.id, (cur, now) => endIncomplete(cur, now));
    return { position: saved.position };
  }
}
