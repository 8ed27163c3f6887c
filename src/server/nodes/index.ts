/**
 * The server side of every node kind, one module each (`src/server/nodes/<type>.ts`), in one map
 * the compiler checks for every `NodeType`. The client scope registers the kinds' routes from it,
 * the step gateway takes the kinds' automatic moves from it, and the page's results ask it how a
 * kind's report is accepted.
 */
import type { FastifyInstance } from 'fastify';
import type { NodeType } from '../../core/flow';
import type { Automatic } from '../flow/gateway';
import { conversation } from './conversation';
import { dataValidation } from './data_validation';
import { documentScan } from './document_scan';
import { enterEmail } from './enter_email';
import { externalCall } from './external_call';
import { faceCompare } from './face_compare';
import { faceScan } from './face_scan';
import { fieldCondition } from './field_condition';
import { livenessDetection } from './liveness_detection';
import { recognition } from './recognition';
import { scriptedMove } from './scripted';
import { twoFactorEmail } from './two_factor_email';
import { twoFactorSms } from './two_factor_sms';
import { NO_SERVER_WORK, type ClientRequests, type NodeRoutes, type ServerNode } from './types';

export { NO_SERVER_WORK, type ClientRequests, type NodeRoutes, type ServerNode } from './types';

/** Every kind's server module. A new kind that lacks one (even `NO_SERVER_WORK`) does not compile. */
export const SERVER_NODES = {
  start: NO_SERVER_WORK,
  end: NO_SERVER_WORK,
  conversation,
  recognition,
  liveness_detection: livenessDetection,
  document_scan: documentScan,
  face_scan: faceScan,
  face_compare: faceCompare,
  enter_email: enterEmail,
  two_factor_email: twoFactorEmail,
  two_factor_sms: twoFactorSms,
  data_validation: dataValidation,
  permissions: NO_SERVER_WORK,
  field_condition: fieldCondition,
  external_call: externalCall,
} as const satisfies { readonly [T in NodeType]: ServerNode<T, never> };

type Nodes = typeof SERVER_NODES;
/** What a kind's routes need; never for a kind without routes (it adds nothing). */
type RouteDeps<N> = N extends { readonly routes?: readonly NodeRoutes<infer D>[] }
  ? [unknown] extends [D]
    ? never
    : D
  : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/** What the kinds' routes need between them (the app context gives it all). */
export type NodeRouteDeps = Intersection<RouteDeps<Nodes[NodeType]>>;

/**
 * The server module of a kind, as the common shape.
 *
 * @example
 * serverNode('enter_email').acceptResult?.('emailEntered', { email: 'a@b.co' }, { testMode: false });
 */
export function serverNode<T extends NodeType>(type: T): ServerNode<T, never> {
  return SERVER_NODES[type] as ServerNode<T, never>;
}

/**
 * The moves the server makes by itself, for the step gateway: a test session's scripted outcome
 * first (`testOutcomes`, which stands in for the tester as for the kind's own work), else the
 * automatic move of the kinds that have one.
 *
 * @example
 * const gateway = createGateway({ store, clock, automatic: automaticMoves });
 */
export const automaticMoves: Automatic = (node, s, now) =>
  scriptedMove(node, s, serverNode(node.type)) ??
  serverNode(node.type).automatic?.(node, s, now) ??
  null;

/**
 * Registers every kind's client routes in the client-token scope, each shared set once.
 *
 * @example
 * await registerNodeRoutes(authed, ctx, client);
 */
export async function registerNodeRoutes(
  app: FastifyInstance,
  deps: NodeRouteDeps,
  client: ClientRequests,
): Promise<void> {
  const sets = new Set<NodeRoutes<NodeRouteDeps>>();
  for (const kind of Object.values(SERVER_NODES) as ServerNode<NodeType, NodeRouteDeps>[]) {
    for (const routes of kind.routes ?? []) sets.add(routes);
  }
  for (const routes of sets) await app.register(async (scope) => routes(scope, deps, client));
}
