import { assign, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import type { RouteTaken } from '../../core/flow/machine-build';
import type { FlowNode, NodeType, Position, PublicSession, SessionAnswer } from '../api/types';
import { isSupportedLang, pickLanguage, SUPPORTED_LANGS } from '../i18n/pickLanguage';
import { askedAlong } from '../nodes/devices';
import { runFlow, type FlowAt, type FlowAtEvent, type FlowRestartedEvent } from './flowRunner';
import { classifyError, type PageErrorKind } from './pageError';

/** One line of the transcript panel. */
export interface TranscriptLine {
  id: number;
  who: 'guide' | 'user';
  text: string;
  /** The node shown when it was said (null before the first node and after the end). */
  at: string | null;
  /** Said by a node that moves on by itself: still shown on the screen that follows. */
  stays?: boolean;
}

/** What the page knows when it starts. */
export interface PageInput {
  /** The client secret read from the address bar, if any. */
  secret: string | null;
  /** A phone's hand-off code read from the address bar (`/p/{code}`), if any. */
  handoff?: string | null;
  /** A client token is kept for this tab. */
  hasToken: boolean;
  /** The kept token came from this very secret (a reload of the same link). */
  tokenFromSecret: boolean;
  /** `navigator.languages`. */
  browserLangs: readonly string[];
}

export interface PageContext extends PageInput {
  session: PublicSession | null;
  /** The session's position, as the server last answered. */
  position: Position | null;
  /** The node whose screen shows: where the flow machine stands. */
  node: FlowNode | null;
  /** Where each outcome of that node leads, from the flow machine. */
  routes: RouteTaken[];
  lang: string;
  error: PageErrorKind | null;
  transcript: TranscriptLine[];
  /** Devices already asked for (by a permissions node or at a node that needed them). */
  asked: { camera: boolean; microphone: boolean };
  /** The email typed at an enter_email node, for the code step that follows. */
  enteredEmail: string | null;
  greeted: boolean;
  exitError: PageErrorKind | null;
  /** The session ended because the user chose to leave. */
  leftByUser: boolean;
  /** The session moved to a phone: this page only follows it (`watching`). */
  onPhone: boolean;
  /** Asking for the camera found none on this device. */
  noCamera: boolean;
  /** The page shows the link to continue on a phone instead of the node's screen. */
  offeringPhone: boolean;
  /** The user chose to go on here, without a camera, rather than on a phone. */
  phoneDeclined: boolean;
  /** This page is the phone a session was handed to (it offers no further hand-off). */
  fromHandoff: boolean;
}

export type PageEvent =
  | { type: 'POSITION'; position: Position }
  /** The guide says a line; `stays` keeps it in view on the next screen (a closing message). */
  | { type: 'SAY'; text: string; stays?: boolean }
  | { type: 'HEARD'; text: string }
  | { type: 'EXIT' }
  | { type: 'FAILED'; error: unknown }
  | { type: 'RETRY' }
  | { type: 'SET_LANG'; lang: string }
  | { type: 'DEVICES_ASKED'; camera: boolean; microphone: boolean }
  | { type: 'EMAIL_ENTERED'; email: string }
  /** Continue on a phone: show the link (the user chose it, or there is no camera). */
  | { type: 'OFFER_PHONE' }
  /** Go on with this device after all. */
  | { type: 'DECLINE_PHONE' }
  /** Asking for the camera found none on this device. */
  | { type: 'NO_CAMERA' }
  /** A phone opened the link: this page now follows the session. */
  | { type: 'ON_PHONE'; position: Position }
  /** Where the session the phone runs stands (from the `watchPhone` actor). */
  | { type: 'PHONE_AT'; position: Position }
  /** The flow machine followed a position (from the `flow` actor). */
  | FlowAtEvent
  /** The flow machine did not reach the server's position (from the `flow` actor). */
  | FlowRestartedEvent;

// Placeholders that keep the actors' types; the page supplies the real ones with `.provide()`.
function notProvided<Output, Input = void>(name: string) {
  return fromPromise<Output, Input>(async () => {
    throw new Error(`The page machine's ${name} actor was not provided`);
  });
}

/** The session's languages that the page has words for (all nine if it names none of them). */
const sessionLangs = (session: PublicSession): string[] => {
  const offered = session.settings.langs.filter(isSupportedLang);
  return offered.length > 0 ? offered : [...SUPPORTED_LANGS];
};

/** The initial phrase, the first time the page shows a node of a fresh session. */
const greetingOf = (context: PageContext): string => {
  const fresh = context.position?.path.every((p) => p.type === 'start') ?? true;
  const phrase = context.session?.settings.initialPhrase;
  return !context.greeted && fresh && phrase ? phrase : '';
};

/** The final phrase, when the session reached an end node. */
const farewellOf = (context: PageContext): string =>
  context.position?.status === 'complete' ? (context.session?.settings.finalPhrase ?? '') : '';

/**
 * The hosted page's life: boot → exchange the secret (or resume with the kept token) → choose
 * the language → the flow: the node screens, each the node where the session's flow machine
 * stands (the `flow` actor runs it, following the server's positions) → ended, or an error page.
 * Server calls are actors and side effects are actions, all named here and supplied by the page
 * with `.provide()` (tests supply their own); the `flow` actor is the page's own.
 */
export const pageMachine = setup({
  types: {
    context: {} as PageContext,
    events: {} as PageEvent,
    input: {} as PageInput,
  },
  actors: {
    exchange: notProvided<SessionAnswer, { secret: string }>('exchange'),
    /** The phone spends a hand-off code for its own client token. */
    claim: notProvided<SessionAnswer, { code: string }>('claim'),
    /** Follows a session that moved to a phone: sends `PHONE_AT` as it moves. */
    watchPhone: fromCallback<PageEvent>(() => () => {}),
    resume: notProvided<SessionAnswer>('resume'),
    /** Loads the language's words, records the language, and fetches the first screen's code. */
    prepare: notProvided<void, { lang: string; record: boolean; nodeType: NodeType | null }>(
      'prepare',
    ),
    exit: notProvided<{ position: Position }>('exit'),
    /** Runs the session's flow machine, following the server's positions (flowRunner.ts). */
    flow: runFlow,
  },
  actions: {
    /** Puts the address bar back without the client secret. */
    cleanAddressBar: () => {},
    /** Forgets the kept client token (its session is gone). */
    forgetToken: () => {},
    /** Speaks a line with the avatar's voice (captions show it either way). */
    speak: (_, _params: { text: string }) => {},
    /** Tells the embedding window what happened. */
    notifyParent: (
      _,
      _params: { type: 'ready' | 'step' | 'complete' | 'incomplete' | 'error' },
    ) => {},
    /** Switches the page's language at the user's request (loads its words, records it). */
    switchLanguage: (_, _params: { lang: string }) => {},
    /** The flow machine did not reach the server's position and was started again there. */
    flowDisagreed: (_, _params: { at: FlowAt; position: Position }) => {},
    say: assign({
      transcript: (
        { context },
        params: { text: string; who: 'guide' | 'user'; stays?: boolean },
      ) =>
        params.text.trim()
          ? [
              ...context.transcript,
              {
                id: context.transcript.length + 1,
                who: params.who,
                text: params.text.trim(),
                at: context.node?.id ?? null,
                ...(params.stays ? { stays: true } : {}),
              },
            ]
          : context.transcript,
    }),
    takeAnswer: assign(({ context }, params: { answer: SessionAnswer }) => ({
      session: params.answer.session,
      position: params.answer.position,
      onPhone: !!params.answer.onPhone,
      asked: askedAlong(context.asked, params.answer.session.flow, params.answer.position),
    })),
    takePosition: assign(({ context }, params: { position: Position }) => ({
      position: params.position,
      asked: askedAlong(context.asked, context.session?.flow ?? [], params.position),
    })),
    /** Shows the node where the flow machine stands. */
    takeFlowAt: assign(({ context }, params: { at: FlowAt }) => ({
      node: context.session?.flow.find((n) => n.id === params.at.nodeId) ?? null,
      routes: params.at.routes,
    })),
    /** The phone moved the session: its position, and the node it is on (for the parent). */
    followPhone: assign(({ context }, params: { position: Position }) => ({
      position: params.position,
      node: context.session?.flow.find((n) => n.id === params.position.nodeId) ?? null,
    })),
    fail: assign({ error: (_, params: { error: unknown }) => classifyError(params.error) }),
  },
  guards: {
    reloadOfSameLink: ({ context }) =>
      !!context.secret && context.hasToken && context.tokenFromSecret,
    hasSecret: ({ context }) => !!context.secret,
    hasHandoff: ({ context }) => !!context.handoff,
    onPhone: ({ context }) => context.onPhone,
    /** The phone reached another node (not the end: that is `ended`'s to tell). */
    phoneElsewhere: ({ context }, params: { position: Position }) =>
      params.position.nodeId !== null && params.position.nodeId !== context.node?.id,
    hasToken: ({ context }) => context.hasToken,
    isNetwork: (_, params: { error: unknown }) => classifyError(params.error) === 'network',
    isSecretError: (_, params: { error: unknown }) =>
      classifyError(params.error).startsWith('secret_'),
    flowEnded: ({ context }) => !!context.position && context.position.status !== 'active',
    flowOver: (_, params: { at: FlowAt }) => params.at.status !== 'active',
    sameNode: ({ context }, params: { at: FlowAt }) =>
      params.at.nodeId !== null && params.at.nodeId === context.node?.id,
    canRetry: ({ context }) => context.error === 'unexpected',
    offersLang: ({ context }, params: { lang: string }) =>
      !!context.session && sessionLangs(context.session).includes(params.lang),
  },
}).createMachine({
  id: 'hostedPage',
  context: ({ input }) => ({
    ...input,
    session: null,
    position: null,
    node: null,
    lang: pickLanguage(input.browserLangs, SUPPORTED_LANGS, 'en'),
    error: null,
    transcript: [],
    asked: { camera: false, microphone: false },
    enteredEmail: null,
    routes: [],
    greeted: false,
    exitError: null,
    leftByUser: false,
    onPhone: false,
    noCamera: false,
    offeringPhone: false,
    phoneDeclined: false,
    fromHandoff: !!input.handoff,
  }),
  initial: 'boot',
  states: {
    boot: {
      always: [
        { guard: 'hasHandoff', target: 'claiming' },
        { guard: 'reloadOfSameLink', target: 'resuming', actions: 'cleanAddressBar' },
        { guard: 'hasSecret', target: 'exchanging' },
        { guard: 'hasToken', target: 'resuming' },
        { target: 'failed', actions: assign({ error: 'secret_missing' }) },
      ],
    },
    exchanging: {
      invoke: {
        src: 'exchange',
        input: ({ context }) => ({ secret: context.secret ?? '' }),
        onDone: {
          target: 'language',
          actions: [
            { type: 'takeAnswer', params: ({ event }) => ({ answer: event.output }) },
            'cleanAddressBar',
          ],
        },
        onError: [
          {
            guard: { type: 'isNetwork', params: ({ event }) => ({ error: event.error }) },
            target: 'offline',
          },
          {
            target: 'failed',
            actions: [
              { type: 'fail', params: ({ event }) => ({ error: event.error }) },
              'cleanAddressBar',
            ],
          },
        ],
      },
    },
    claiming: {
      invoke: {
        src: 'claim',
        // Spent once: a reload (with the code gone from the address) resumes with the token.
        input: ({ context }) => ({ code: context.handoff ?? '' }),
        onDone: {
          target: 'language',
          actions: [
            assign({ handoff: null }),
            { type: 'takeAnswer', params: ({ event }) => ({ answer: event.output }) },
            'cleanAddressBar',
          ],
        },
        onError: [
          {
            guard: { type: 'isNetwork', params: ({ event }) => ({ error: event.error }) },
            target: 'offline',
          },
          {
            target: 'failed',
            actions: [
              { type: 'fail', params: ({ event }) => ({ error: event.error }) },
              'cleanAddressBar',
            ],
          },
        ],
      },
    },
    resuming: {
      invoke: {
        src: 'resume',
        onDone: {
          target: 'language',
          actions: [
            { type: 'takeAnswer', params: ({ event }) => ({ answer: event.output }) },
            // With the session known, its id goes into the address (a reload inside an iframe).
            'cleanAddressBar',
          ],
        },
        onError: [
          {
            guard: { type: 'isNetwork', params: ({ event }) => ({ error: event.error }) },
            target: 'offline',
          },
          {
            target: 'failed',
            actions: [
              { type: 'fail', params: ({ event }) => ({ error: event.error }) },
              // A token that opens nothing is useless; another link can start afresh.
              'forgetToken',
            ],
          },
        ],
      },
    },
    offline: {
      entry: assign({ error: 'network' }),
      on: { RETRY: { target: 'boot', actions: assign({ error: null }) } },
    },
    language: {
      entry: assign({
        lang: ({ context }) => {
          const session = context.session!;
          const offered = sessionLangs(session);
          if (session.settings.lang && offered.includes(session.settings.lang)) {
            return session.settings.lang;
          }
          return pickLanguage(context.browserLangs, offered, session.settings.defaultLang);
        },
      }),
      invoke: {
        src: 'prepare',
        input: ({ context }) => ({
          lang: context.lang,
          record: context.session?.settings.lang !== context.lang,
          // The server's node: its screen's code comes with the words (the flow machine runs next).
          nodeType: context.position?.status === 'active' ? context.position.nodeType : null,
        }),
        // Recording the language is not worth stopping the user for: the page goes on either way.
        onDone: 'started',
        onError: 'started',
      },
    },
    started: {
      entry: { type: 'notifyParent', params: { type: 'ready' } },
      always: [
        { guard: 'flowEnded', target: 'ended' },
        { guard: 'onPhone', target: 'watching' },
        { target: 'flow' },
      ],
    },
    flow: {
      entry: assign({ node: null, routes: [] }),
      invoke: {
        id: 'flow',
        src: 'flow',
        input: ({ context }) => ({ flow: context.session!.flow, position: context.position! }),
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: {
        FLOW_RESTARTED: {
          actions: {
            type: 'flowDisagreed',
            params: ({ event }) => ({ at: event.at, position: event.position }),
          },
        },
      },
      // The flow actor reports where its machine stands as it starts: `placing` is left at once.
      initial: 'placing',
      states: {
        placing: {
          on: {
            FLOW_AT: [
              {
                guard: { type: 'flowOver', params: ({ event }) => ({ at: event.at }) },
                target: '#hostedPage.ended',
                actions: { type: 'takeFlowAt', params: ({ event }) => ({ at: event.at }) },
              },
              {
                target: 'step',
                actions: { type: 'takeFlowAt', params: ({ event }) => ({ at: event.at }) },
              },
            ],
          },
        },
        step: {
          entry: [
            { type: 'notifyParent', params: { type: 'step' } },
            { type: 'say', params: ({ context }) => ({ text: greetingOf(context), who: 'guide' }) },
            { type: 'speak', params: ({ context }) => ({ text: greetingOf(context) }) },
            assign({ greeted: true }),
          ],
          on: {
            POSITION: {
              actions: [
                { type: 'takePosition', params: ({ event }) => ({ position: event.position }) },
                // The flow machine follows it, and reports where it stands (FLOW_AT).
                sendTo('flow', ({ event }) => event),
              ],
            },
            EXIT: 'leaving',
            FAILED: [
              {
                guard: { type: 'isNetwork', params: ({ event }) => ({ error: event.error }) },
                // A screen's own retry handles a lost connection; nothing to do here.
              },
              {
                target: '#hostedPage.failed',
                actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) },
              },
            ],
            DEVICES_ASKED: {
              actions: assign({
                asked: ({ context, event }) => ({
                  camera: context.asked.camera || event.camera,
                  microphone: context.asked.microphone || event.microphone,
                }),
              }),
            },
            EMAIL_ENTERED: { actions: assign({ enteredEmail: ({ event }) => event.email }) },
            OFFER_PHONE: { actions: assign({ offeringPhone: true }) },
            DECLINE_PHONE: { actions: assign({ offeringPhone: false, phoneDeclined: true }) },
            NO_CAMERA: { actions: assign({ noCamera: true }) },
            ON_PHONE: {
              target: '#hostedPage.watching',
              actions: [
                assign({ onPhone: true, offeringPhone: false }),
                { type: 'takePosition', params: ({ event }) => ({ position: event.position }) },
              ],
            },
            FLOW_AT: [
              {
                guard: { type: 'flowOver', params: ({ event }) => ({ at: event.at }) },
                target: '#hostedPage.ended',
                actions: { type: 'takeFlowAt', params: ({ event }) => ({ at: event.at }) },
              },
              {
                guard: { type: 'sameNode', params: ({ event }) => ({ at: event.at }) },
                actions: { type: 'takeFlowAt', params: ({ event }) => ({ at: event.at }) },
              },
              {
                // Another node: the step is shown anew (entry actions: the parent hears of it).
                target: 'step',
                reenter: true,
                actions: { type: 'takeFlowAt', params: ({ event }) => ({ at: event.at }) },
              },
            ],
          },
        },
        leaving: {
          entry: assign({ exitError: null }),
          invoke: {
            src: 'exit',
            onDone: {
              target: '#hostedPage.ended',
              actions: [
                assign({ leftByUser: true }),
                {
                  type: 'takePosition',
                  params: ({ event }) => ({ position: event.output.position }),
                },
              ],
            },
            onError: {
              target: 'step',
              actions: assign({ exitError: ({ event }) => classifyError(event.error) }),
            },
          },
        },
      },
    },
    // The session moved to a phone: this page follows it, tells its parent of each step the
    // phone reaches, and ends when the phone does.
    watching: {
      invoke: { src: 'watchPhone' },
      always: { guard: 'flowEnded', target: 'ended' },
      on: {
        PHONE_AT: [
          {
            guard: {
              type: 'phoneElsewhere',
              params: ({ event }) => ({ position: event.position }),
            },
            actions: [
              { type: 'followPhone', params: ({ event }) => ({ position: event.position }) },
              { type: 'notifyParent', params: { type: 'step' } },
            ],
          },
          {
            actions: { type: 'followPhone', params: ({ event }) => ({ position: event.position }) },
          },
        ],
      },
    },
    ended: {
      entry: [
        {
          type: 'notifyParent',
          params: ({ context }) => ({
            type: context.position?.status === 'complete' ? 'complete' : 'incomplete',
          }),
        },
        { type: 'say', params: ({ context }) => ({ text: farewellOf(context), who: 'guide' }) },
        { type: 'speak', params: ({ context }) => ({ text: farewellOf(context) }) },
      ],
    },
    failed: {
      entry: { type: 'notifyParent', params: { type: 'error' } },
      on: { RETRY: { guard: 'canRetry', target: 'boot' } },
    },
  },
  on: {
    SAY: {
      actions: [
        {
          type: 'say',
          params: ({ event }) => ({ text: event.text, who: 'guide' as const, stays: event.stays }),
        },
        { type: 'speak', params: ({ event }) => ({ text: event.text }) },
      ],
    },
    HEARD: {
      actions: { type: 'say', params: ({ event }) => ({ text: event.text, who: 'user' as const }) },
    },
    SET_LANG: {
      guard: { type: 'offersLang', params: ({ event }) => ({ lang: event.lang }) },
      actions: [
        assign({ lang: ({ event }) => event.lang }),
        { type: 'switchLanguage', params: ({ event }) => ({ lang: event.lang }) },
      ],
    },
  },
});
