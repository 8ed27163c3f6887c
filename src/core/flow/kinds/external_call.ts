import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import type { LooseNode, NodeIssue } from './common';
import { TargetSchema, nodeSchema, outcomeItems, recordOf } from './common';
import type { Kind } from './kind';
import { ValueOperandSchema } from './operands';

/** How many `vars` a request may carry. */
export const MAX_EXTERNAL_VARS = 50;

const ExternalRequestSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'An https URL (http only for a test session and an allowed private address); it must ' +
        'pass the webhook address policy when the call is made. `sessionId=<id>` is added to ' +
        'its query.',
    }),
    method: Type.Optional(
      Type.Union([Type.Literal('GET'), Type.Literal('POST')], {
        default: 'POST',
        description: 'POST: the vars as a JSON body; GET: the vars in the query string.',
      }),
    ),
    vars: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({
              minLength: 1,
              maxLength: FLOW_LIMITS.maxDataKeyLength,
              description: 'The key in the outbound payload.',
            }),
            value: ValueOperandSchema,
          },
          { additionalProperties: false },
        ),
        {
          maxItems: MAX_EXTERNAL_VARS,
          description: 'The values sent, resolved when the call is made.',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'External request' },
);

/** An outbound request to the integrator's endpoint; its flat JSON answer joins providedData. */
export const ExternalCallNodeSchema = nodeSchema(
  'external_call',
  {
    request: ExternalRequestSchema,
    outcome: { ...TargetSchema, description: 'The next node, whatever the call gave.' },
  },
  "Calls the integrator's endpoint with values from the session (signed like webhooks, time-" +
    'limited, retried) and merges the scalar members of its JSON answer into providedData. ' +
    'Never branches: follow it with a field_condition.',
);
export type ExternalCallNode = Static<typeof ExternalCallNodeSchema>;
export type ResolvedExternalCallNode = ExternalCallNode & {
  request: ExternalCallNode['request'] & { method: 'GET' | 'POST' };
};

/**
 * The node with its method filled in.
 * @example externalCallWithDefaults(node).request.method // 'POST' unless set
 */
export function externalCallWithDefaults(node: ExternalCallNode): ResolvedExternalCallNode {
  return { ...node, request: { ...node.request, method: node.request.method ?? 'POST' } };
}

/**
 * Checks the schema cannot express: an http(s) URL without credentials, unique var names.
 * @example checkExternalCall({ request: { url: 'ftp://x' } }) // one issue at .request.url
 */
export function checkExternalCall(node: LooseNode): NodeIssue[] {
  const request = recordOf(node.request);
  const issues: NodeIssue[] = [];
  if (typeof request.url === 'string') {
    // The core has no URL class (no DOM, no node:); the server parses the URL again to call it.
    const parts = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\s]+)[^\s]*$/i.exec(request.url);
    if (!parts)
      issues.push({ field: '.request.url', message: `"${request.url}" is not an absolute URL` });
    else if (!/^https?$/i.test(parts[1] ?? ''))
      issues.push({ field: '.request.url', message: 'request.url must be an http or https URL' });
    else if ((parts[2] ?? '').includes('@'))
      issues.push({ field: '.request.url', message: 'request.url may not carry credentials' });
  }
  const seen = new Map<string, number>();
  for (const [i, v] of outcomeItems(request.vars)) {
    if (typeof v.name !== 'string') continue;
    const first = seen.get(v.name);
    if (first === undefined) seen.set(v.name, i);
    else
      issues.push({
        field: `.request.vars[${i}].name`,
        message: `var name '${v.name}' is used twice (also vars[${first}])`,
      });
  }
  return issues;
}

/** What an external_call node's report holds: how the call went and what it merged. */
export interface ExternalCallReport {
  /** The HTTP status of the last try; absent when no answer came. */
  status?: number;
  /** Tries made. */
  attempts: number;
  /** The providedData keys the answer set. */
  merged: string[];
  /** Why the call failed (`failed` outcome). */
  error?: string;
}

/**
 * The external_call kind. The server makes the call when the page reaches the node
 * (src/server/nodes/external_call.ts); its outcome is `completed` or `failed`, both to `outcome`.
 */
export const externalCall = {
  type: 'external_call',
  schema: ExternalCallNodeSchema,
  defaults: externalCallWithDefaults,
  check: checkExternalCall,
  routes: { routing: 'computed' },
  types: {} as { report: ExternalCallReport },
} as const satisfies Kind<
  'external_call',
  typeof ExternalCallNodeSchema,
  ResolvedExternalCallNode,
  ExternalCallReport
>;
