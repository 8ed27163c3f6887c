import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, fromPromise } from 'xstate';
import { App } from './App';
import { createClientApi } from './api/client';
import { addressWithSession, takeHandoff, takeSecret } from './api/secret';
import { storageTokenStore } from './api/token';
import { createSpeaker } from './avatar/speech';
import { postToParent } from './embed/postToParent';
import { isSupportedLang, pageLanguageBeforeSession } from './i18n/pickLanguage';
import { switchLanguage } from './i18n/setup';
import { watchPhone } from './handoff/watchPhone';
import { pageMachine } from './machine/pageMachine';
import { loadScreen, screensFor } from './nodes/registry';
import './styles.css';

const tokens = storageTokenStore(window.sessionStorage);
const api = createClientApi({ tokens });
const speaker = createSpeaker(window);
const { secret, cleanUrl: withoutSecret } = takeSecret(window.location.href);
const { handoff, cleanUrl } = takeHandoff(withoutSecret);

const setLanguage = async (lang: string) => {
  if (!isSupportedLang(lang)) return;
  speaker.configure({ lang });
  await switchLanguage(lang);
};

const machine = pageMachine.provide({
  actors: {
    exchange: fromPromise(({ input }) => api.exchange(input.secret)),
    claim: fromPromise(({ input }) => api.handoffClaim(input.code)),
    watchPhone: watchPhone(() => api.handoffStatus()),
    resume: fromPromise(() => api.session()),
    prepare: fromPromise(async ({ input }) => {
      // A node that needs a device nobody asked for opens on the permissions page: its screen
      // comes too.
      const screens = input.nodeType ? screensFor(input.nodeType) : [];
      await Promise.all([
        setLanguage(input.lang),
        input.record && api.setLang(input.lang),
        ...screens.map((type) => loadScreen(type).catch(() => {})),
      ]);
    }),
    exit: fromPromise(() => api.exit()),
  },
  actions: {
    cleanAddressBar: ({ context }) =>
      window.history.replaceState(
        window.history.state,
        '',
        context.session ? addressWithSession(cleanUrl, context.session.id) : cleanUrl,
      ),
    forgetToken: () => tokens.clear(),
    speak: (_, { text }) => speaker.say(text),
    switchLanguage: (_, { lang }) => {
      void setLanguage(lang);
      api.setLang(lang).catch(() => {
        // The words change at once; recording the choice is retried by the next reload.
      });
    },
    flowDisagreed: (_, { at, position }) =>
      // The page followed the server; the flow machine started again at its node.
      console.warn(
        `The flow machine did not reach the server's position (${position.status} at ${position.nodeId ?? 'the end'}); it was started again there.`,
        at,
      ),
    notifyParent: ({ context }, { type }) => {
      const session = context.session;
      if (!session) return;
      const origins = session.settings.embedOrigins;
      const sessionId = session.id;
      const position = context.position;
      switch (type) {
        case 'ready':
          return postToParent(origins, { type, sessionId, lang: context.lang });
        case 'step':
          if (!context.node) return;
          return postToParent(origins, {
            type,
            sessionId,
            nodeId: context.node.id,
            nodeType: context.node.type,
            index: (position?.path.filter((p) => p.type !== 'start').length ?? 0) + 1,
          });
        case 'complete':
          return postToParent(origins, { type, sessionId });
        case 'incomplete': {
          const last = position?.path[position.path.length - 1];
          return postToParent(origins, {
            type,
            sessionId,
            reason: context.leftByUser ? 'exited' : (last?.outcome ?? 'ended'),
          });
        }
        case 'error':
          return postToParent(origins, { type, sessionId, code: context.error ?? 'unexpected' });
      }
    },
  },
});

const actor = createActor(machine, {
  input: {
    secret,
    handoff,
    hasToken: api.hasToken(),
    tokenFromSecret: secret ? api.tokenCameFrom(secret) : false,
    browserLangs: navigator.languages?.length ? navigator.languages : [navigator.language],
  },
});
// The exchange starts now, while the first words load.
actor.start();

const root = document.getElementById('root');
const firstWords = switchLanguage(pageLanguageBeforeSession(navigator.languages ?? []));
void firstWords.finally(() => {
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App actor={actor} api={api} speaker={speaker} />
    </StrictMode>,
  );
});
