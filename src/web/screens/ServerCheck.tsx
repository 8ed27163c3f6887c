import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Busy, CallProblem } from '../components/Notice';
import { StepHeading } from '../components/StepHeading';
import { atLeast } from './atLeast';
import type { ScreenProps } from './types';
import { useServerCall } from './useServerCall';

/** The "checking" state stays at least this long, so it does not blink past. */
export const MIN_CHECKING_MS = 800;

/**
 * A node the server decides at once from what the session already holds (face_compare,
 * recognition): a short "checking" state while `POST /client/nodes/:id/run` runs, then the page
 * follows the position. A lost connection offers a retry; a refusal says so, with a retry. In test
 * mode the check waits for "Run the check", so the tester's panel can decide the node instead.
 *
 * @example
 * <ServerCheck {...props} testId="recognition-screen" checking={t('recognition.checking')} />
 */
export function ServerCheck({
  node,
  session,
  api,
  send,
  testId,
  heading,
  checking,
}: ScreenProps & { testId: string; heading: string; checking: string }) {
  const { t } = useTranslation();
  const call = useServerCall(send, api);
  const { run } = call;
  // In test mode the tester may rather pick the outcome in the panel: the check waits for a tap.
  const [asked, setAsked] = useState(!session.testMode);
  // Once per node: React runs effects twice in development, and the server decides only once.
  const started = useRef(false);
  useEffect(() => {
    if (!asked || started.current) return;
    started.current = true;
    void run(async () => {
      const { position } = await atLeast(api.run(node.id), MIN_CHECKING_MS);
      send({ type: 'POSITION', position });
    });
  }, [asked, api, node.id, run, send]);

  const titleId = `${testId}-title`;
  return (
    <section
      className="card"
      aria-labelledby={titleId}
      aria-busy={asked && !call.problem}
      data-testid={testId}
      data-state={!asked ? 'waiting' : call.problem ? 'problem' : 'checking'}
    >
      <p className="eyebrow">{t(`nodes.${node.type}`)}</p>
      <StepHeading id={titleId}>{heading}</StepHeading>
      {asked && !call.problem && <Busy label={checking} />}
      {!asked && (
        <div className="actions">
          <button
            type="button"
            className="button"
            data-testid={`${testId}-run`}
            onClick={() => setAsked(true)}
          >
            {t('faceCheck.run')}
          </button>
        </div>
      )}
      {call.problem === 'network' && <CallProblem problem="network" onRetry={call.retry} />}
      {call.problem === 'refused' && (
        <div className="notice notice-error" role="alert">
          <p>{t('faceCheck.failed')}</p>
          <button
            type="button"
            className="button button-secondary"
            data-testid={`${testId}-retry`}
            onClick={call.retry}
          >
            {t('app.retry')}
          </button>
        </div>
      )}
    </section>
  );
}
