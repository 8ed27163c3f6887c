import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { ClientApiError } from '../api/errors';
import type { FlowNode, Position, PublicSession, SessionAnswer } from '../api/types';
import { pageMachine, type PageInput } from './pageMachine';

const FLOW = [
  { id: 'start', type: 'start', outcome: 'mail' },
  { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'code', canceled: 'bye' } },
  { id: 'code', type: 'two_factor_email', outcomes: { verified: 'done' } },
  { id: 'done', type: 'end' },
  { id: 'bye', type: 'end' },
] as unknown as FlowNode[];

const session = (over: Partial<PublicSession['settings']> = {}): PublicSession => ({
  id: 'ses_1',
  status: 'inProgress',
  testMode: false,
  flow: FLOW,
  settings: {
    avatar: null,
    langs: ['en', 'fr', 'de'],
    defaultLang: 'en',
    lang: null,
    embedOrigins: ['https://shop.example'],
    initialPhrase: 'Welcome',
    finalPhrase: 'Goodbye',
    ...over,
  },
  contact: { email: null, phone: null },
});

const at = (
  nodeId: string | null,
  path: Position['path'] = [],
  status: Position['status'] = 'active',
): Position => ({
  nodeId,
  nodeType: (FLOW.find((n) => n.id === nodeId)?.type ?? null) as Position['nodeType'],
  status,
  path,
});

const input = (over: Partial<PageInput> = {}): PageInput => ({
  secret: 'cs_secret',
  hasToken: false,
  tokenFromSecret: false,
  browserLangs: ['fr-CA', 'en'],
  ...over,
});

/** Runs the machine with the server's answers given as plain functions, recording side effects. */
function run(
  answers: {
    exchange?: () => Promise<SessionAnswer>;
    resume?: () => Promise<SessionAnswer>;
    exit?: () => Promise<{ position: Position }>;
    claim?: () => Promise<SessionAnswer>;
  },
  pageInput: PageInput = input(),
) {
  const log: string[] = [];
  const recorded: { lang: string; record: boolean; nodeType: string | null }[] = [];
  const machine = pageMachine.provide({
    actors: {
      exchange: fromPromise(async ({ input: i }) => {
        log.push(`exchange ${i.secret}`);
        return (answers.exchange ?? (() => Promise.reject(new Error('no exchange'))))();
      }),
      resume: fromPromise(async () => {
        log.push('resume');
        return (answers.resume ?? (() => Promise.reject(new Error('no resume'))))();
      }),
      claim: fromPromise(async ({ input: i }) => {
        log.push(`claim ${i.code}`);
        return (answers.claim ?? (() => Promise.reject(new Error('no claim'))))();
      }),
      watchPhone: fromCallback(() => {
        log.push('watch');
        return () => log.push('unwatch');
      }),
      prepare: fromPromise(async ({ input: i }) => {
        recorded.push(i);
      }),
      exit: fromPromise(async () =>
        (answers.exit ?? (() => Promise.reject(new Error('no exit'))))(),
      ),
    },
    actions: {
      cleanAddressBar: () => log.push('clean'),
      forgetToken: () => log.push('forget'),
      speak: (_, { text }) => {
        if (text) log.push(`speak ${text}`);
      },
      notifyParent: ({ context }, { type }) =>
        log.push(`post ${type}${type === 'step' ? ` ${context.node?.id}` : ''}`),
      switchLanguage: (_, { lang }) => log.push(`lang ${lang}`),
      flowDisagreed: (_, { position }) => log.push(`disagreed ${position.nodeId}`),
    },
  });
  const actor = createActor(machine, { input: pageInput });
  actor.start();
  return { actor, log, recorded };
}

describe('the page machine', () => {
  it('exchanges the secret, picks the language, and shows the node the server names', async () => {
    const { actor, log, recorded } = run({
      exchange: async () => ({ session: session(), position: at('mail') }),
    });
    const snap = await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    expect(snap.context.node?.id).toBe('mail');
    // Where the flow machine's transitions from the node lead.
    expect(snap.context.routes).toEqual([
      { outcome: 'emailEntered', target: 'code' },
      { outcome: 'canceled', target: 'bye' },
    ]);
    expect(snap.context.lang).toBe('fr');
    expect(recorded).toEqual([{ lang: 'fr', record: true, nodeType: 'enter_email' }]);
    expect(log).toEqual([
      'exchange cs_secret',
      'clean',
      'post ready',
      'post step mail',
      'speak Welcome',
    ]);
    expect(snap.context.transcript).toEqual([{ id: 1, who: 'guide', text: 'Welcome', at: 'mail' }]);
  });

  it('keeps a language already recorded for the session and does not record it again', async () => {
    const { actor, recorded } = run({
      exchange: async () => ({ session: session({ lang: 'de' }), position: at('mail') }),
    });
    const snap = await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    expect(snap.context.lang).toBe('de');
    expect(recorded).toEqual([{ lang: 'de', record: false, nodeType: 'enter_email' }]);
  });

  it('falls back to the default language when the browser prefers none offered', async () => {
    const { actor } = run(
      { exchange: async () => ({ session: session({ defaultLang: 'de' }), position: at('mail') }) },
      input({ browserLangs: ['ja'] }),
    );
    expect((await waitFor(actor, (s) => s.matches({ flow: 'step' }))).context.lang).toBe('de');
  });

  it('follows positions to the end, saying the final phrase and telling the parent', async () => {
    const { actor, log } = run({
      exchange: async () => ({ session: session(), position: at('mail') }),
    });
    await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    const afterMail = at('code', [
      { nodeId: 'mail', type: 'enter_email', outcome: 'emailEntered' },
    ]);
    actor.send({ type: 'POSITION', position: afterMail });
    expect(actor.getSnapshot().context.node?.id).toBe('code');
    actor.send({
      type: 'POSITION',
      position: at(
        null,
        [...afterMail.path, { nodeId: 'code', type: 'two_factor_email', outcome: 'verified' }],
        'complete',
      ),
    });
    const snap = actor.getSnapshot();
    expect(snap.matches('ended')).toBe(true);
    expect(log.slice(-3)).toEqual(['post step code', 'post complete', 'speak Goodbye']);
    // The flow machine moved with the server's outcomes all the way.
    expect(log.filter((l) => l.startsWith('disagreed'))).toEqual([]);
    // The initial phrase is said once, not again at the second node.
    expect(log.filter((l) => l === 'speak Welcome')).toHaveLength(1);
  });

  it('follows the server when the flow machine disagrees, and goes on from there', async () => {
    const { actor, log } = run({
      exchange: async () => ({ session: session(), position: at('mail') }),
    });
    await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    // The path says canceled (→ bye, the end) but the server names "code": trust the server.
    const canceled = [{ nodeId: 'mail', type: 'enter_email', outcome: 'canceled' } as const];
    actor.send({ type: 'POSITION', position: at('code', canceled) });
    let snap = actor.getSnapshot();
    expect(snap.matches({ flow: 'step' })).toBe(true);
    expect(snap.context.node?.id).toBe('code');
    expect(snap.context.routes).toEqual([{ outcome: 'verified', target: 'done' }]);
    expect(log.filter((l) => l.startsWith('disagreed'))).toEqual(['disagreed code']);
    // The flow machine started again at the server's node, and follows the next outcome.
    const verified = { nodeId: 'code', type: 'two_factor_email', outcome: 'verified' } as const;
    actor.send({ type: 'POSITION', position: at(null, [...canceled, verified], 'complete') });
    snap = actor.getSnapshot();
    expect(snap.matches('ended')).toBe(true);
    expect(log.filter((l) => l.startsWith('disagreed'))).toEqual(['disagreed code']);
  });

  it('follows one answer of the server past several nodes, showing none of them', async () => {
    const { actor, log } = run({
      exchange: async () => ({ session: session(), position: at('mail') }),
    });
    await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    actor.send({
      type: 'POSITION',
      position: at(
        null,
        [
          { nodeId: 'mail', type: 'enter_email', outcome: 'emailEntered' },
          { nodeId: 'code', type: 'two_factor_email', outcome: 'verified' },
        ],
        'complete',
      ),
    });
    expect(actor.getSnapshot().matches('ended')).toBe(true);
    expect(log).not.toContain('post step code');
    expect(log.filter((l) => l.startsWith('disagreed'))).toEqual([]);
  });

  it('stays on the node when the server keeps the session there', async () => {
    const { actor, log } = run({
      exchange: async () => ({ session: session(), position: at('mail') }),
    });
    await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    actor.send({ type: 'POSITION', position: at('mail') });
    expect(actor.getSnapshot().context.node?.id).toBe('mail');
    // Not shown again: the step is not re-entered.
    expect(log.filter((l) => l === 'post step mail')).toHaveLength(1);
  });

  it('shows the page of each bad secret and cleans the address bar', async () => {
    for (const [code, kind] of [
      ['client_secret_used', 'secret_used'],
      ['client_secret_expired', 'secret_expired'],
      ['client_secret_invalid', 'secret_invalid'],
    ] as const) {
      const { actor, log } = run({
        exchange: () => Promise.reject(new ClientApiError(401, 'authentication_error', 'no', code)),
      });
      const snap = await waitFor(actor, (s) => s.matches('failed'));
      expect(snap.context.error).toBe(kind);
      expect(log).toContain('clean');
    }
  });

  it('offers a retry when the network fails, and retries', async () => {
    let calls = 0;
    const { actor } = run({
      exchange: async () => {
        calls++;
        if (calls === 1) throw new ClientApiError(0, 'network_error', 'offline');
        return { session: session(), position: at('mail') };
      },
    });
    await waitFor(actor, (s) => s.matches('offline'));
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    expect(calls).toBe(2);
  });

  it('resumes with the kept token after a reload, and forgets a token that opens nothing', async () => {
    const ok = run(
      {
        resume: async () => ({
          session: session(),
          position: at('code', [{ nodeId: 'mail', type: 'enter_email', outcome: 'emailEntered' }]),
        }),
      },
      input({ secret: null, hasToken: true }),
    );
    const snap = await waitFor(ok.actor, (s) => s.matches({ flow: 'step' }));
    expect(snap.context.node?.id).toBe('code');
    // The flow machine went there by the server's outcomes, not by a restart.
    expect(ok.log.filter((l) => l.startsWith('disagreed'))).toEqual([]);
    // Mid-flow: no greeting again.
    expect(ok.log).not.toContain('speak Welcome');

    const gone = run(
      {
        resume: () =>
          Promise.reject(
            new ClientApiError(401, 'authentication_error', 'x', 'client_token_invalid'),
          ),
      },
      input({ secret: null, hasToken: true }),
    );
    const failed = await waitFor(gone.actor, (s) => s.matches('failed'));
    expect(failed.context.error).toBe('session_gone');
    expect(gone.log).toContain('forget');
  });

  it('resumes instead of exchanging again when the same link is reloaded', async () => {
    const { actor, log } = run(
      { resume: async () => ({ session: session(), position: at('mail') }) },
      input({ hasToken: true, tokenFromSecret: true }),
    );
    await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    expect(log).toContain('clean');
    expect(log).toContain('resume');
    expect(log.some((l) => l.startsWith('exchange'))).toBe(false);
  });

  it('shows the missing-link page without a secret or token', () => {
    const { actor } = run({}, input({ secret: null }));
    expect(actor.getSnapshot().matches('failed')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('secret_missing');
  });

  it('ends incomplete when the user leaves', async () => {
    const { actor, log } = run({
      exchange: async () => ({ session: session(), position: at('mail') }),
      exit: async () => ({ position: at(null, [], 'incomplete') }),
    });
    await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    actor.send({ type: 'EXIT' });
    const snap = await waitFor(actor, (s) => s.matches('ended'));
    expect(snap.context.leftByUser).toBe(true);
    expect(log).toContain('post incomplete');
    expect(log).not.toContain('speak Goodbye');
  });

  it('switches only to a language the session offers', async () => {
    const { actor, log } = run({
      exchange: async () => ({ session: session(), position: at('mail') }),
    });
    await waitFor(actor, (s) => s.matches({ flow: 'step' }));
    actor.send({ type: 'SET_LANG', lang: 'ru' });
    actor.send({ type: 'SET_LANG', lang: 'de' });
    expect(actor.getSnapshot().context.lang).toBe('de');
    expect(log.filter((l) => l.startsWith('lang '))).toEqual(['lang de']);
  });

  describe('continue on a phone', () => {
    const passed = (nodeId: string, type: string, outcome: string) =>
      ({ nodeId, type, outcome }) as Position['path'][number];

    it('the phone spends the hand-off code and offers no further hand-off', async () => {
      const { actor, log } = run(
        { claim: async () => ({ session: session(), position: at('mail') }) },
        input({ secret: null, handoff: 'K7QPX2MZ9RTA' }),
      );
      const snap = await waitFor(actor, (s) => s.matches({ flow: 'step' }));
      expect(snap.context.fromHandoff).toBe(true);
      expect(snap.context.handoff).toBeNull();
      expect(log.slice(0, 2)).toEqual(['claim K7QPX2MZ9RTA', 'clean']);
    });

    it('shows the page of a used, expired or unknown link', async () => {
      for (const code of ['handoff_used', 'handoff_expired', 'handoff_invalid']) {
        const { actor } = run(
          {
            claim: () => Promise.reject(new ClientApiError(401, 'authentication_error', 'x', code)),
          },
          input({ secret: null, handoff: 'K7QPX2MZ9RTA' }),
        );
        expect((await waitFor(actor, (s) => s.matches('failed'))).context.error).toBe(code);
      }
    });

    it('the computer offers the link, then follows the phone step by step to the end', async () => {
      const { actor, log } = run({
        exchange: async () => ({ session: session(), position: at('mail') }),
      });
      await waitFor(actor, (s) => s.matches({ flow: 'step' }));
      actor.send({ type: 'NO_CAMERA' });
      actor.send({ type: 'OFFER_PHONE' });
      expect(actor.getSnapshot().context).toMatchObject({ noCamera: true, offeringPhone: true });
      actor.send({ type: 'DECLINE_PHONE' });
      expect(actor.getSnapshot().context).toMatchObject({
        offeringPhone: false,
        phoneDeclined: true,
      });
      actor.send({ type: 'OFFER_PHONE' });
      log.length = 0;

      actor.send({ type: 'ON_PHONE', position: at('mail') });
      expect(actor.getSnapshot().matches('watching')).toBe(true);
      expect(actor.getSnapshot().context.offeringPhone).toBe(false);
      expect(log).toEqual(['watch']);
      // The same node again tells the parent nothing new; a new node is a step.
      actor.send({ type: 'PHONE_AT', position: at('mail') });
      actor.send({
        type: 'PHONE_AT',
        position: at('code', [passed('mail', 'enter_email', 'emailEntered')]),
      });
      expect(log).toEqual(['watch', 'post step code']);
      actor.send({
        type: 'PHONE_AT',
        position: at(
          null,
          [
            passed('mail', 'enter_email', 'emailEntered'),
            passed('code', 'two_factor_email', 'verified'),
          ],
          'complete',
        ),
      });
      const snap = actor.getSnapshot();
      expect(snap.matches('ended')).toBe(true);
      expect(log.slice(2)).toEqual(['post complete', 'speak Goodbye', 'unwatch']);
    });

    it('a computer reloaded after the hand-off goes back to following the phone', async () => {
      const { actor, log } = run(
        { resume: async () => ({ session: session(), position: at('code'), onPhone: true }) },
        input({ secret: null, hasToken: true }),
      );
      await waitFor(actor, (s) => s.matches('watching'));
      expect(log).toContain('watch');
    });
  });
});
