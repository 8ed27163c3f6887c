/**
 * `conversation`: the avatar says the node's prompt (rendered in the session's language), the user
 * replies, and the server picks the outcome whose condition the reply meets (the first, in order);
 * a node that does not wait for a reply moves on along its first outcome at worst.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ReplyBodySchema } from '../../core/api';
import { nodeDefaults, type FlowPosition } from '../../core/flow';
import { REASK_LIMIT, answerTo, isCatchAll, questionTopic } from '../conversation/questions';
import { turnsOf, withLine } from '../conversation/transcript';
import type {
  ConditionEvaluator,
  ExtractedData,
  FieldExtractor,
  PromptRenderer,
} from '../conversation/types';
import {
  ApiError,
  requireCurrent,
  requireCurrentOf,
  type SessionRecord,
  type StepGateway,
} from '../flow/gateway';
import { sessionLang } from './lang';
import type { NodeRoutes, ServerNode } from './types';

export interface ConversationDeps {
  gateway: StepGateway;
  evaluator: ConditionEvaluator;
  renderer: PromptRenderer;
  extractor: FieldExtractor;
}

/**
 * What the avatar says at the current node: its prompt rendered, kept once in the transcript
 * (asking again adds no line). Reading a prompt is not activity.
 *
 * @example
 * await promptOf(deps, session, 'greet'); // { text: 'Hello! Ready to start?' }
 */
export async function promptOf(
  deps: ConversationDeps,
  s: SessionRecord,
  nodeId: string,
): Promise<{ text: string }> {
  const node = requireCurrent(s, nodeId);
  const prompt = 'prompt' in node ? node.prompt : undefined;
  if (typeof prompt !== 'string' || prompt.trim() === '') return { text: '' };
  const text = await deps.renderer.render({ prompt, lang: sessionLang(s) });
  await deps.gateway.move(
    s.id,
    nodeId,
    (cur, now) => {
      const last = [...cur.report.transcript]
        .reverse()
        .find((t) => t.nodeId === nodeId && t.isAvatar);
      if (last && last.text === text) return null;
      return { session: withLine(cur, { text, isAvatar: true, nodeId }, now) };
    },
    { what: 'a prompt' },
  );
  return { text };
}

/** How many replies the user has given at this visit of the node (the lines since it began). */
function repliesHere(s: SessionRecord, nodeId: string): number {
  let n = 0;
  for (const line of [...s.report.transcript].reverse()) {
    if (line.nodeId !== nodeId) break;
    if (!line.isAvatar) n++;
  }
  return n;
}

/** What the guide answers instead of moving on, or null when the reply takes its outcome. */
async function answerInstead(
  deps: ConversationDeps,
  s: SessionRecord,
  nodeId: string,
  conv: { prompt: string; outcomes: readonly { condition?: string | undefined }[] },
  index: number | null,
  reply: string,
): Promise<{ answer: string; again: string } | null> {
  const caught = index !== null && isCatchAll(conv.outcomes[index]?.condition ?? '');
  if (index !== null && !caught) return null;
  const topic = questionTopic(reply);
  // A catch-all takes any plain reply (a name, a free answer); a question only past the limit.
  if (caught && (topic === null || repliesHere(s, nodeId) >= REASK_LIMIT)) return null;
  const lang = sessionLang(s);
  const again = await deps.renderer.render({ prompt: conv.prompt, lang });
  return { answer: answerTo(topic ?? 'unclear', lang), again };
}

/**
 * The session's `extractionSchema` fields read from all the user's replies, this one included;
 * null when the session declares none. Run at each reply, before the flow moves on, so the data
 * a later node reads (a field_condition, an external_call) and the final report are always those
 * of the whole conversation so far.
 */
async function extractedWith(
  deps: ConversationDeps,
  s: SessionRecord,
  nodeId: string,
  reply: string,
): Promise<ExtractedData | null> {
  const fields = s.settings.extractionSchema;
  if (!fields || reply === '') return null;
  const transcript = [...s.report.transcript, { text: reply, isAvatar: false, nodeId }];
  return deps.extractor.extract({ fields, turns: turnsOf(transcript), lang: sessionLang(s) });
}

/**
 * The user's reply at the current conversation node: recorded in the transcript, judged against
 * the outcomes' conditions, and the node's step when one matches. A question ("what is this
 * for?"), or a reply no condition takes, is answered and the prompt asked again (`answer`,
 * `again`), up to `REASK_LIMIT` times before a catch-all condition takes it.
 *
 * @example
 * await replyTo(deps, session, 'ask', 'yes please'); // { outcome: 'agreed', position }
 * await replyTo(deps, session, 'ask', 'why?'); // { outcome: null, answer: 'I ask so…', again: 'Are you ready?', position }
 */
export async function replyTo(
  deps: ConversationDeps,
  s: SessionRecord,
  nodeId: string,
  text: string | undefined,
): Promise<{ outcome: string | null; position: FlowPosition; answer?: string; again?: string }> {
  const node = requireCurrentOf(
    s,
    nodeId,
    ['conversation'],
    (n) => `node '${nodeId}' is a ${n.type} node; replies go to conversation nodes`,
  );
  const conv = nodeDefaults(node);
  const reply = (text ?? '').trim();
  if (!conv.doesNotRequireReply && reply === '') {
    throw new ApiError('validation_error', 'text is required: this node waits for a reply');
  }
  const conditions = conv.outcomes.map((o) => o.condition ?? '');
  let index = await deps.evaluator.choose({
    conditions,
    reply,
    lang: sessionLang(s),
    prompt: conv.prompt,
  });
  // A node that does not wait for a reply always moves on, along its first outcome at worst.
  if (index === null && conv.doesNotRequireReply && conv.outcomes.length > 0) index = 0;
  const instead = conv.doesNotRequireReply
    ? null
    : await answerInstead(deps, s, nodeId, conv, index, reply);
  const outcome = index === null || instead ? null : (conv.outcomes[index]?.id ?? null);
  const extracted = await extractedWith(deps, s, nodeId, reply);
  const saved = await deps.gateway.move(
    s.id,
    nodeId,
    (cur, now) => {
      let said = reply === '' ? cur : withLine(cur, { text: reply, isAvatar: false, nodeId }, now);
      if (instead) {
        said = withLine(said, { text: instead.answer, isAvatar: true, nodeId }, now);
        said = withLine(said, { text: instead.again, isAvatar: true, nodeId }, now);
      }
      if (extracted) {
        // A field this reply leaves unfound keeps what it holds (an enter_email's address).
        const extractedData = { ...(said.report.extractedData ?? {}) };
        for (const [k, v] of Object.entries(extracted)) {
          if (v !== null || !Object.hasOwn(extractedData, k)) extractedData[k] = v;
        }
        said = { ...said, report: { ...said.report, extractedData } };
      }
      const session = { ...said, lastActivityAt: now };
      return outcome === null ? { session } : { session, outcome, report: { reply } };
    },
    { what: 'a reply' },
  );
  return { outcome, position: saved.position, ...(instead ?? {}) };
}

/**
 * `GET /client/nodes/:nodeId/prompt` and `POST /client/nodes/:nodeId/reply` `{ text? }`.
 *
 * @example
 * await conversationRoutes(scope, ctx, client);
 */
export const conversationRoutes: NodeRoutes<ConversationDeps> = (app, deps, client) => {
  app.get<{ Params: { nodeId: string } }>(
    '/nodes/:nodeId/prompt',
    client.route('What the avatar says at the node', null, Type.Object({ text: Type.String() })),
    async (request) => promptOf(deps, client.session(request), request.params.nodeId),
  );
  app.post<{ Params: { nodeId: string }; Body: Static<typeof ReplyBodySchema> }>(
    '/nodes/:nodeId/reply',
    client.route(
      'A reply to a conversation node',
      ReplyBodySchema,
      client.nodeAnswer({
        outcome: Type.Union([Type.String(), Type.Null()]),
        answer: Type.Optional(Type.String({ description: 'The guide answers a question first' })),
        again: Type.Optional(Type.String({ description: 'and asks the prompt again' })),
      }),
    ),
    async (request) =>
      replyTo(deps, client.session(request), request.params.nodeId, request.body.text),
  );
};

export const conversation: ServerNode<'conversation', ConversationDeps> = {
  routes: [conversationRoutes],
};
