import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ClientApiError } from '../api/errors';
import type { OtpSent } from '../api/types';
import type { ScreenProps } from '../screens/types';
import { useServerCall } from '../screens/useServerCall';
import { cleanCode, secondsUntil } from '../format/countdown';
import { looksLikeEmail, maskEmail, maskPhone, normalizePhone } from '../format/mask';
import { otpRefusalKey } from '../otp/otpRefusal';
import { Busy, CallProblem } from './Notice';
import { StepHeading } from './StepHeading';

/** How long the "code sent" toast stays (the node's showUI). */
const TOAST_MS = 4000;

/**
 * The shared body of two_factor_email and two_factor_sms: where the code goes (asked for when the
 * session knows no address), sending, the code field (`autocomplete="one-time-code"`), attempts
 * left, a resend once `resendAfter` has passed, and cancel. An address the user typed can be
 * changed ("Change email address") without ending the node, within the server's send caps. The
 * screen first reads the node's state (`GET …/otp`), so a reload after a send shows the code
 * field again instead of sending another code. The server checks the code and moves the flow;
 * this screen follows its position.
 */
export function OtpStep({
  channel,
  node,
  session,
  lang,
  api,
  send,
  enteredEmail,
}: ScreenProps<'two_factor_email' | 'two_factor_sms'> & { channel: 'email' | 'sms' }) {
  const { t } = useTranslation();
  const length = node.otpLength ?? 6;
  const known =
    channel === 'email'
      ? (session.contact.email ?? (enteredEmail ? maskEmail(enteredEmail) : null))
      : session.contact.phone;
  const [askDestination, setAskDestination] = useState(!known);
  const [destination, setDestination] = useState('');
  const [destinationInvalid, setDestinationInvalid] = useState(false);
  const [sent, setSent] = useState<OtpSent | null>(null);
  const [code, setCode] = useState('');
  const [codeInvalid, setCodeInvalid] = useState(false);
  const [wrong, setWrong] = useState<number | null>(null);
  const [notice, setNotice] = useState<'alreadySent' | 'expired' | null>(null);
  // The node's showUI (default true): a toast says where each code went, for a few seconds.
  const [toastUntil, setToastUntil] = useState(0);
  const resendWait = (node.resendAfterSeconds ?? 30) * 1000;
  const [now, setNow] = useState(() => Date.now());
  // Until the node's state is read: whether a code went out before a reload.
  const [loaded, setLoaded] = useState(false);
  const [changeable, setChangeable] = useState(!known);
  // When the server takes the next code: kept across a change of address (the wait still holds).
  const [nextSendAt, setNextSendAt] = useState(0);
  const codeInput = useRef<HTMLInputElement>(null);
  const call = useServerCall(send, api);

  const ticking = sent !== null || nextSendAt > now;
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);

  const nodeId = node.id;
  const { run } = call;
  useEffect(() => {
    void run(async () => {
      try {
        const state = await api.otpState(nodeId);
        setChangeable(state.changeable);
        if (state.sent) {
          const { attemptsLeft: _left, ...restored } = state.sent;
          setSent(restored);
          setNextSendAt(restored.resendAfter);
          if (restored.expiresAt <= Date.now()) setNotice('expired');
        }
      } catch (error) {
        // A refusal (an older server, say) leaves the screen as it was before reloads were known.
        if (!(error instanceof ClientApiError) || error.isNetwork || error.isAuth) throw error;
      }
      setLoaded(true);
    });
  }, [run, api, nodeId]);

  const doSend = (to?: string) =>
    void call.run(async () => {
      let answer;
      try {
        answer = await api.otpSend(node.id, to);
      } catch (error) {
        if (!(error instanceof ClientApiError) || error.type !== 'validation_error') throw error;
        if (error.code === 'otp_resend_too_soon' && !to) {
          // A code went out moments ago (before a reload, say): let the user type it.
          setNotice('alreadySent');
          setSent({
            sentTo: sent?.sentTo ?? known ?? '',
            expiresAt: 0,
            resendAfter: Date.now() + resendWait,
          });
          return;
        }
        if (!to && !sent && error.code === 'otp_destination_required') {
          // The server knew no address after all: ask for one.
          setAskDestination(true);
          return;
        }
        throw error;
      }
      if ('position' in answer) {
        send({ type: 'POSITION', position: answer.position });
        return;
      }
      setSent(answer);
      setNextSendAt(answer.resendAfter);
      setNotice(null);
      setNow(Date.now());
      if (node.showUI !== false) setToastUntil(Date.now() + TOAST_MS);
      setCode('');
      setWrong(null);
    });

  const sendClicked = (event: React.FormEvent) => {
    event.preventDefault();
    if (!askDestination) return doSend();
    const value =
      channel === 'email'
        ? looksLikeEmail(destination)
          ? destination.trim()
          : null
        : normalizePhone(destination);
    if (!value) {
      setDestinationInvalid(true);
      return;
    }
    setDestinationInvalid(false);
    doSend(value);
  };

  const verify = (event: React.FormEvent) => {
    event.preventDefault();
    if (code.length !== length) {
      setCodeInvalid(true);
      codeInput.current?.focus();
      return;
    }
    setCodeInvalid(false);
    void call.run(async () => {
      let answer;
      try {
        answer = await api.otpVerify(node.id, code);
      } catch (error) {
        if (error instanceof ClientApiError && error.code === 'otp_expired') {
          setNotice('expired');
          setNow(Date.now());
          setSent((s) => (s ? { ...s, resendAfter: 0 } : s));
          return;
        }
        throw error;
      }
      setNotice(null);
      const moved = answer.position.status !== 'active' || answer.position.nodeId !== node.id;
      if (moved || answer.verified) {
        send({ type: 'POSITION', position: answer.position });
        return;
      }
      setWrong(answer.attemptsLeft);
      setCode('');
      codeInput.current?.focus();
    });
  };

  // Back to the address field; the node goes on, and so do its caps and the resend wait.
  const changeDestination = () => {
    setSent(null);
    setAskDestination(true);
    setDestination('');
    setDestinationInvalid(false);
    setCode('');
    setCodeInvalid(false);
    setWrong(null);
    setNotice(null);
  };

  const cancel = () =>
    void call.run(async () => {
      const { position } = await api.result(node.id, 'cancelled');
      send({ type: 'POSITION', position });
    });

  const heading = channel === 'email' ? t('otp.headingEmail') : t('otp.headingSms');
  const wait = sent ? secondsUntil(sent.resendAfter, now) : 0;
  const sendWait = secondsUntil(nextSendAt, now);
  const refusal = otpRefusalKey(call.refusal?.code, channel);
  const problem = (
    <CallProblem
      problem={call.problem}
      onRetry={call.retry}
      {...(refusal ? { message: t(refusal) } : {})}
    />
  );
  const changeButton = changeable ? (
    <button
      type="button"
      className="button button-quiet"
      onClick={changeDestination}
      disabled={call.busy}
      data-testid="otp-change"
    >
      {channel === 'email' ? t('otp.changeEmail') : t('otp.changePhone')}
    </button>
  ) : null;
  const cancelButton = (
    <button type="button" className="button button-quiet" onClick={cancel} disabled={call.busy}>
      {t('otp.cancel')}
    </button>
  );

  // One heading for both phases, so it keeps its place; the code field takes the focus once sent.
  const sentAt = sent ? sent.resendAfter : null;
  useEffect(() => {
    if (sentAt !== null) codeInput.current?.focus();
  }, [sentAt]);

  return (
    <section className="card otp" aria-labelledby="otp-title">
      <StepHeading id="otp-title">{heading}</StepHeading>
      {!loaded ? (
        <>
          <Busy />
          {problem}
        </>
      ) : sent ? (
        codePhase(sent)
      ) : (
        sendPhase()
      )}
      {sent && now < toastUntil && (
        // The status line below the heading already says it to screen readers.
        <div className="toast" aria-hidden="true" data-testid="otp-toast">
          {t('otp.sentToast', { destination: sent.sentTo || known || '' })}
        </div>
      )}
    </section>
  );

  function sendPhase() {
    return (
      <>
        <form onSubmit={sendClicked} noValidate>
          {askDestination ? (
            <>
              <p>{channel === 'email' ? t('otp.askEmail') : t('otp.askPhone')}</p>
              <label htmlFor="otp-destination" className="label">
                {channel === 'email' ? t('otp.emailLabel') : t('otp.phoneLabel')}
              </label>
              <input
                id="otp-destination"
                className="input"
                type={channel === 'email' ? 'email' : 'tel'}
                inputMode={channel === 'email' ? 'email' : 'tel'}
                autoComplete={channel === 'email' ? 'email' : 'tel'}
                autoCapitalize="none"
                spellCheck={false}
                value={destination}
                aria-invalid={destinationInvalid || undefined}
                aria-describedby={destinationInvalid ? 'otp-destination-error' : undefined}
                onChange={(e) => setDestination(e.target.value)}
              />
              {destinationInvalid && (
                <p id="otp-destination-error" className="field-error" role="alert">
                  {channel === 'email' ? t('email.invalid') : t('otp.phoneInvalid')}
                </p>
              )}
            </>
          ) : (
            <p>
              {channel === 'email'
                ? t('otp.willSendEmail', { destination: known })
                : t('otp.willSendSms', { destination: known })}
            </p>
          )}
          {session.testMode && <p className="hint">{t('testMode.codeHint')}</p>}
          {problem}
          {sendWait > 0 && (
            <p className="muted" aria-live="off">
              {t('otp.resendIn', { seconds: sendWait })}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="button" disabled={call.busy || sendWait > 0}>
              {t('otp.send')}
            </button>
            {!askDestination && changeButton}
            {cancelButton}
          </div>
        </form>
      </>
    );
  }

  function codePhase(sent: OtpSent) {
    const sentTo =
      sent.sentTo || (channel === 'email' ? maskEmail(destination) : maskPhone(destination || ''));
    return (
      <>
        <p role="status">
          {notice === 'alreadySent'
            ? t('otp.alreadySent')
            : t('otp.sentTo', { destination: sentTo })}
        </p>
        {sent.expiresAt > 0 && (
          <p className="muted">
            {t('otp.expiresAt', {
              time: new Intl.DateTimeFormat(lang, { timeStyle: 'short' }).format(sent.expiresAt),
            })}
          </p>
        )}
        {session.testMode && <p className="hint">{t('testMode.codeHint')}</p>}
        <form onSubmit={verify} noValidate>
          <label htmlFor="otp-code" className="label">
            {t('otp.codeLabel', { length })}
          </label>
          <input
            id="otp-code"
            ref={codeInput}
            className="input input-code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern={`\\d{${length}}`}
            maxLength={length + 4}
            value={code}
            aria-invalid={codeInvalid || wrong !== null || undefined}
            aria-describedby={
              [codeInvalid && 'otp-code-error', wrong !== null && 'otp-wrong']
                .filter(Boolean)
                .join(' ') || undefined
            }
            onChange={(e) => setCode(cleanCode(e.target.value, length))}
          />
          {notice === 'expired' && (
            <p className="field-error" role="alert">
              {t('otp.expired')}
            </p>
          )}
          {codeInvalid && (
            <p id="otp-code-error" className="field-error" role="alert">
              {t('otp.codeInvalid', { length })}
            </p>
          )}
          {wrong !== null && (
            <p id="otp-wrong" className="field-error" role="alert">
              {t('otp.wrongCode')} {t('otp.attemptsLeft', { attempts: wrong })}
            </p>
          )}
          {problem}
          <div className="actions">
            <button type="submit" className="button" disabled={call.busy}>
              {t('otp.verify')}
            </button>
            {changeButton}
            {cancelButton}
          </div>
        </form>
        <div className="resend">
          {wait > 0 ? (
            <p className="muted" aria-live="off">
              {t('otp.resendIn', { seconds: wait })}
            </p>
          ) : (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => doSend(askDestination ? sendTarget(channel, destination) : undefined)}
              disabled={call.busy}
            >
              {t('otp.resend')}
            </button>
          )}
        </div>
      </>
    );
  }
}

const sendTarget = (channel: 'email' | 'sms', typed: string) =>
  channel === 'email' ? typed.trim() : (normalizePhone(typed) ?? undefined);
