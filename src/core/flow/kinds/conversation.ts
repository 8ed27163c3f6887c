import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import type { LooseNode, NodeIssue } from './common';
import { conditionalOutcomes, duplicateOutcomeIds, nodeSchema } from './common';
import type { Kind } from './kind';

/** The avatar speaks a prompt and branches on the user's reply. */
export const ConversationNodeSchema = nodeSchema(
  'conversation',
  {
    prompt: Type.String({
      minLength: 1,
      maxLength: FLOW_LIMITS.maxPromptLength,
      description:
        'Instruction to the avatar. `Say:` at the start asks for these exact words; ' +
        'otherwise the avatar phrases it in the session language.',
    }),
    doesNotRequireReply: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'When true the node does not wait for a reply (closing messages).',
      }),
    ),
    outcomes: conditionalOutcomes(
      'Evaluated in order against the reply; the first matching condition decides.',
    ),
  },
  'The avatar speaks a prompt and branches on the reply.',
);
export type ConversationNode = Static<typeof ConversationNodeSchema>;

export const CONVERSATION_DEFAULTS = { doesNotRequireReply: false } as const;
export type ResolvedConversationNode = ConversationNode & {
  doesNotRequireReply: boolean;
  outcomes: { id: string; condition: string; targetNodeId?: string }[];
};

/**
 * The node with every option filled in (conditions default to the empty, always-true one).
 * @example conversationWithDefaults(node).doesNotRequireReply // false unless set
 */
export function conversationWithDefaults(node: ConversationNode): ResolvedConversationNode {
  return {
    ...CONVERSATION_DEFAULTS,
    ...node,
    outcomes: node.outcomes.map((o) => ({ ...o, condition: o.condition ?? '' })),
  };
}

/**
 * Checks the schema cannot express: unique outcome ids.
 * @example checkConversation(node) // [] when the outcome ids differ
 */
export function checkConversation(node: LooseNode): NodeIssue[] {
  return duplicateOutcomeIds(node.outcomes);
}

/** What a conversation node's report holds: the user's words (none when no reply was due). */
export interface ConversationReport {
  reply?: string;
}

/**
 * The conversation kind. The server picks the outcome from the user's reply; its ids are the
 * integrator's own routing and never count against `isVerified`.
 */
export const conversation = {
  type: 'conversation',
  schema: ConversationNodeSchema,
  defaults: conversationWithDefaults,
  check: checkConversation,
  routes: { routing: 'conditional', decidedBy: 'server', failing: () => false },
  types: {} as { report: ConversationReport },
} as const satisfies Kind<
  'conversation',
  typeof ConversationNodeSchema,
  ResolvedConversationNode,
  ConversationReport
>;
