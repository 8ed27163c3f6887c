import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, fromPromise } from 'xstate';
import { App } from './App';
import { createClientApi } from './api/client';
import { takeSecret } from './api/secret';
import { storageTokenStore } from './api/token';
import { createSpeaker } from './avatar/speech';
import { postToParent } from './embed/postToParent';
import { isSupportedLang, pageLanguageBeforeSession } from './i18n/pickLanguage';
import { switchLanguage } from './i18n/setup';
import { loadFlowCore } from './machine/flowCore';
import { pageMachine } from './machine/pageMachine';
import './styles.css';

const tokens = storageTokenStore(window.sessionStorage);
const api = createClientApi({ tokens });
const speaker = createSpeaker(window);
const { secret, cleanUrl } = takeSecret(window.location.href);

const setLanguage = async (lang: string) => {
  if (!isSupportedLang(lang)) return;
  speaker.configure({ lang });
  await switchLanguage(lang);
};

const machine = pageMachine.provide({
  actors: {
    exchange: fromPromise(({ input }) => api.exchange(input.secret)),
    resume: fromPromise(() => api.session()),
    applyLanguage: fromPromise(async ({ input }) => {
      await Promise.all([setLanguage(input.lang), input.record && api.setLang(input.lang)]);
    }),
    exit: fromPromise(() => api.exit()),
  },
  actions: {
    cleanAddressBar: () => window.history.replaceState(window.history.state, '', cleanUrl),
    forgetToken: () => tokens.clear(),
    speak: (_, { text }) => speaker.say(text),
    switchLanguage: (_, { lang }) => {
      void setLanguage(lang);
      api.setLang(lang).catch(() => {
        // The words change at once; recording the choice is retried by the next reload.
      });
    },
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
    hasToken: api.hasToken(),
    tokenFromSecret: secret ? api.tokenCameFrom(secret) : false,
    browserLangs: navigator.languages?.length ? navigator.languages : [navigator.language],
  },
});
// The exchange starts now, while the first words and the flow core load.
actor.start();
void loadFlowCore()
  .then(() => actor.send({ type: 'FLOW_CORE_READY' }))
  .catch(() => {
    // Without the core the page still follows the server's positions; only the check is lost.
  });

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
