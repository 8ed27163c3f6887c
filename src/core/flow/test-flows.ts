import conversationBranching from '../../../e2e/flows/conversation-branching.json';
import fullKyc from '../../../e2e/flows/full-kyc.json';
import minimal from '../../../e2e/flows/minimal.json';
import type { Flow } from './kinds';
import { validateFlow } from './validate';

/**
 * A JSON value as a Flow, after making sure it is one (tests only: it throws on a bad flow).
 * @example asFlow([{ id: 's', type: 'start', outcome: 'e' }, { id: 'e', type: 'end' }])
 */
export function asFlow(json: unknown): Flow {
  const problems = validateFlow(json);
  if (problems.length > 0) throw new Error(`not a valid flow: ${JSON.stringify(problems)}`);
  return json as Flow;
}

/** The sample flows of e2e/flows, each a fresh copy. */
export const sampleFlows = {
  minimal: () => asFlow(copy(minimal)),
  fullKyc: () => asFlow(copy(fullKyc)),
  conversationBranching: () => asFlow(copy(conversationBranching)),
};

function copy(json: unknown): unknown {
  return JSON.parse(JSON.stringify(json));
}
