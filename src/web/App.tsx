import { createElement, lazy, Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom, StateValue } from 'xstate';
import type { ClientApi } from './api/client';
import { AvatarStage } from './avatar/AvatarStage';
import { Captions } from './avatar/Captions';
import type { Speaker } from './avatar/speech';
import { ErrorPage } from './components/ErrorPage';
import { ExitButton } from './components/ExitButton';
import { StepProgress } from './components/StepProgress';
import { Busy } from './components/Notice';
import { ControlPanel } from './controls/ControlPanel';
import { planControls } from './controls/rules';
import { isSupportedLang } from './i18n/pickLanguage';
import type { pageMachine } from './machine/pageMachine';
import { useActorState } from './machine/useActorState';
import { usePrefs } from './prefs/store';
import { cameraAhead } from './recording/cameraAhead';
import { RecordingNotice } from './recording/RecordingNotice';
import { releaseSessionCamera } from './recording/recordingState';
import { endSessionRecording } from './recording/sessionEnd';
import { askBefore, devicesFor } from './nodes/devices';
import { prefetchScreen, screenFor } from './nodes/registry';
import { DEVICE_ASKER } from './nodes';
import { canRecognizeSpeech } from './screens/speechInput';
import { TestBanner } from './testmode/TestBanner';

const EndScreen = lazy(() => import('./screens/EndScreen'));
const TestPanel = lazy(() => import('./testmode/TestPanel'));
const HandoffOffer = lazy(() => import('./handoff/HandoffOffer'));
const PhoneWatch = lazy(() => import('./handoff/PhoneWatch'));

/** The innermost state's name (`step` for `{ flow: 'step' }`), for `data-state`. */
const leafOf = (value: StateValue): string =>
  typeof value === 'string' ? value : leafOf(Object.values(value)[0] ?? '');

/** The hosted verification page: the page machine's state, drawn. */
export function App({
  actor,
  api,
  speaker,
}: {
  actor: ActorRefFrom<typeof pageMachine>;
  api: ClientApi;
  speaker: Speaker;
}) {
  const { t } = useTranslation();
  const snapshot = useActorState(actor);
  const ctx = snapshot.context;
  const session = ctx.session;
  const send = actor.send;
  const plan = planControls(session?.settings.customization?.controls);
  const captionsPref = usePrefs((s) => s.captionsOpen);
  const voiceOn = usePrefs((s) => s.voiceOn);
  const captionsOpen = plan.showPanel && (captionsPref ?? plan.captionsOpenAtStart);
  const onStep = snapshot.matches({ flow: 'step' });
  const inFlow = onStep || snapshot.matches({ flow: 'leaving' });
  const node = inFlow ? ctx.node : null;

  useEffect(() => {
    speaker.configure({
      enabled: voiceOn || !plan.showPanel || !plan.voice,
      gender: session?.settings.avatar?.gender,
    });
  }, [speaker, voiceOn, plan.showPanel, plan.voice, session]);

  // Fetch the screens that may come next while the user is busy with this one: where the flow
  // machine's transitions from this node lead.
  const routes = ctx.routes;
  useEffect(() => {
    if (!session) return;
    for (const { target } of routes) {
      const next = session.flow.find((n) => n.id === target);
      if (next) prefetchScreen(next.type);
    }
  }, [routes, session]);

  // The session's recording (if a camera node started one) is uploaded in the background: the
  // end screen never waits for it.
  const flowEnded = snapshot.matches('ended');
  useEffect(() => {
    if (flowEnded) void endSessionRecording();
  }, [flowEnded]);

  // The camera goes off once no camera node can come: the video of the session ends there.
  const nodeId = node?.id;
  useEffect(() => {
    if (session && nodeId && !cameraAhead(session.flow, nodeId)) void releaseSessionCamera();
  }, [session, nodeId]);

  const implicitAsk = useMemo(
    () => (node ? askBefore(node, ctx.asked, { speechRecognition: canRecognizeSpeech() }) : null),
    [node, ctx.asked],
  );

  // Continue on a phone: offered at a camera node (the user's choice, or no camera found here).
  const needsCamera =
    !!node && devicesFor(node, { speechRecognition: canRecognizeSpeech() }).camera;
  const offeringPhone =
    onStep && (ctx.offeringPhone || (needsCamera && ctx.noCamera && !ctx.phoneDeclined));

  let body;
  if (snapshot.matches('failed') && ctx.error) {
    body = (
      <ErrorPage
        kind={ctx.error}
        onRetry={ctx.error === 'unexpected' ? () => send({ type: 'RETRY' }) : undefined}
      />
    );
  } else if (snapshot.matches('offline')) {
    body = <ErrorPage kind="network" onRetry={() => send({ type: 'RETRY' })} />;
  } else if (snapshot.matches('ended') && session && ctx.position) {
    body = (
      <EndScreen
        session={session}
        status={ctx.position.status === 'complete' ? 'complete' : 'incomplete'}
        endReason={ctx.position.endReason}
      />
    );
  } else if (snapshot.matches('watching')) {
    body = <PhoneWatch flow={session?.flow ?? []} position={ctx.position} />;
  } else if (offeringPhone) {
    body = <HandoffOffer api={api} send={send} noCamera={ctx.noCamera} />;
  } else if (node && session) {
    const props = {
      node,
      session,
      lang: ctx.lang,
      api,
      send,
      enteredEmail: ctx.enteredEmail,
    };
    // Screens are lazy components made once per node type (nodes/registry.ts). Where the page
    // asks for devices in front of the node, the asking kind's screen (permissions) does it.
    body =
      implicitAsk && DEVICE_ASKER
        ? createElement(screenFor(DEVICE_ASKER), {
            key: `ask-${node.id}`,
            ...props,
            implicitAsk,
          })
        : createElement(screenFor(node.type), { key: node.id, ...props });
  } else {
    body = (
      <section className="card" aria-busy="true">
        <Busy label={t('app.loading')} />
      </section>
    );
  }

  const langs = session ? session.settings.langs.filter(isSupportedLang) : [];

  return (
    <div className={`page${session?.testMode ? ' page-test' : ''}`}>
      <a className="skip-link" href="#step">
        {t('app.skipToContent')}
      </a>
      {session?.testMode && <TestBanner />}
      <header className="topbar">
        <span className="brand">{t('app.title')}</span>
        <div className="topbar-actions">
          {session && plan.showPanel && (
            <ControlPanel
              captionsOpen={captionsOpen}
              voiceSupported={speaker.supported}
              langs={langs}
              lang={ctx.lang}
              onLang={(lang) => send({ type: 'SET_LANG', lang })}
              shown={plan}
            />
          )}
          {inFlow && plan.close && (
            <ExitButton
              onExit={() => send({ type: 'EXIT' })}
              disabled={snapshot.matches({ flow: 'leaving' })}
            />
          )}
        </div>
      </header>
      <div className={`layout${session ? ' layout-session' : ''}`}>
        {session && (
          <div className="side">
            <AvatarStage
              avatar={session.settings.avatar}
              transcript={ctx.transcript}
              nodeId={node?.id ?? null}
              speaker={speaker}
            />
            {captionsOpen && (
              <Captions transcript={ctx.transcript} guideName={session.settings.avatar?.name} />
            )}
          </div>
        )}
        <main
          id="step"
          tabIndex={-1}
          className="step"
          aria-label={t('app.stepRegion')}
          data-state={leafOf(snapshot.value)}
          data-node-id={node?.id}
        >
          {inFlow && !offeringPhone && session && ctx.position && (
            <StepProgress flow={session.flow} position={ctx.position} />
          )}
          <RecordingNotice />
          <Suspense
            fallback={
              <section className="card" aria-busy="true">
                <Busy />
              </section>
            }
          >
            {body}
          </Suspense>
          {needsCamera && !offeringPhone && onStep && !ctx.fromHandoff && (
            <p className="handoff-choice">
              <button
                type="button"
                className="button button-quiet"
                onClick={() => send({ type: 'OFFER_PHONE' })}
              >
                {t('handoff.usePhone')}
              </button>
            </p>
          )}
          {ctx.exitError && (
            <p className="notice notice-error" role="alert">
              {ctx.exitError === 'network' ? t('app.networkError') : t('app.unexpectedError')}
            </p>
          )}
        </main>
        {session?.testMode && node && onStep && (
          <Suspense fallback={null}>
            <TestPanel key={node.id} node={node} routes={routes} api={api} send={send} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
