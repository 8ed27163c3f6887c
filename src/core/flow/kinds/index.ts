/**
 * The node kinds of a flow, one module each (`kinds/<type>.ts`), and every table of node types
 * derived from them: types, schemas, defaults, checks, outcomes, who decides them, the failing
 * ones. Adding a kind: docs/flows.md, "Adding a node kind".
 */
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import type { LooseNode, NodeIssue } from './common';
import { conversation } from './conversation';
import { dataValidation } from './data_validation';
import { documentScan } from './document_scan';
import { end } from './end';
import { externalCall } from './external_call';
import { fieldCondition } from './field_condition';
import { enterEmail } from './enter_email';
import { faceCompare } from './face_compare';
import { faceScan } from './face_scan';
import type { Decider, StepSeen } from './kind';
import { livenessDetection } from './liveness_detection';
import { permissions } from './permissions';
import { recognition } from './recognition';
import { start } from './start';
import { kindTables } from './tables';
import { twoFactorEmail } from './two_factor_email';
import { twoFactorSms } from './two_factor_sms';

/** Every node kind, by its type, in the order the docs list them. */
export const KINDS = {
  start,
  end,
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
  permissions,
  field_condition: fieldCondition,
  external_call: externalCall,
} as const;

type Kinds = typeof KINDS;

/** Every node type a flow may hold. */
export type NodeType = keyof Kinds;

// A kind filed under another type's key does not compile.
const _filedUnderItsType: { readonly [T in NodeType]: { readonly type: T } } = KINDS;

/** Each node type's node, as the integrator sends it. */
export type NodeByType = { [T in NodeType]: Static<Kinds[T]['schema']> };
/** Each node type's node with every optional field that has a default filled in. */
export type ResolvedNodeByType = { [T in NodeType]: ReturnType<Kinds[T]['defaults']> };
/** What each node type's node report holds in `report`. */
export type NodeReportByType = { [T in NodeType]: Kinds[T]['types']['report'] };

/** One node of a flow: the union of every node type. */
export type FlowNode = NodeByType[NodeType];
export type ResolvedNode<T extends NodeType = NodeType> = ResolvedNodeByType[T];
/** A flow: an array of nodes forming a DAG with one start and at least one end. */
export type Flow = FlowNode[];

type Routes<T extends NodeType> = Kinds[T]['routes'];
/** Node types whose `outcomes` object maps fixed outcome keys to target node ids. */
export type FixedOutcomeNodeType = {
  [T in NodeType]: Routes<T>['routing'] extends 'fixed' ? T : never;
}[NodeType];
/** Node types whose `outcomes` is an ordered array of `{ id, condition, targetNodeId }`. */
export type ConditionalNodeType = {
  [T in NodeType]: Routes<T>['routing'] extends 'conditional' ? T : never;
}[NodeType];
/** Node types whose outcomes are named after their own fields (computed-routes.ts). */
export type ComputedNodeType = {
  [T in NodeType]: Routes<T>['routing'] extends 'computed' ? T : never;
}[NodeType];
/** Node types whose work runs as an invoked actor (start and end are actions). */
export type WorkNodeType = FixedOutcomeNodeType | ConditionalNodeType | ComputedNodeType;
/** The outcome keys of a fixed-outcome node type. */
export type OutcomeKey<T extends FixedOutcomeNodeType> = keyof Extract<
  Routes<T>,
  { routing: 'fixed' }
>['outcomes'] &
  string;

/** The outcome a node of that type selects: a fixed key, or the id of a conditional outcome. */
export type OutcomeOf<T extends NodeType> = T extends FixedOutcomeNodeType
  ? OutcomeKey<T>
  : T extends ConditionalNodeType | ComputedNodeType
    ? string
    : never;

type Rules<T extends FixedOutcomeNodeType> = Extract<Routes<T>, { routing: 'fixed' }>['outcomes'];
/** The fixed outcomes of a type that `D` decides, e.g. the ones a server analysis decides. */
export type OutcomeDecidedBy<T extends FixedOutcomeNodeType, D extends Decider> = {
  [K in OutcomeKey<T>]: Rules<T>[K] extends { decidedBy: D } ? K : never;
}[OutcomeKey<T>];

/**
 * What the server side of a kind (its node module, `src/server/nodes/<type>.ts`) hands to the
 * session's step once it has decided: the node, its outcome and what the node report holds.
 */
export interface NodeStep<T extends NodeType> {
  nodeId: string;
  outcome: OutcomeOf<T>;
  report?: NodeReportByType[T];
  inconclusiveReason?: string;
}

/** The tables below, derived from `KINDS` (the recipe test checks they are this object's). */
export const KIND_TABLES = kindTables(Object.values(KINDS));

/** Every node type, in the order the docs list them. */
export const NODE_TYPES = KIND_TABLES.nodeTypes as readonly NodeType[];

/**
 * The outcome keys of each fixed-outcome node type. A node's `outcomes` object maps some of these
 * keys to target node ids; a key left out ends the session `incomplete` when the node selects it.
 */
export const FIXED_OUTCOMES = KIND_TABLES.fixedOutcomes as unknown as {
  readonly [T in FixedOutcomeNodeType]: readonly OutcomeKey<T>[];
};

/** Node types whose `outcomes` is an ordered array of `{ id, condition, targetNodeId }`. */
export const CONDITIONAL_NODE_TYPES =
  KIND_TABLES.conditionalTypes as readonly ConditionalNodeType[];

/** Node types whose outcomes are named after their own fields (computed-routes.ts). */
export const COMPUTED_NODE_TYPES = KIND_TABLES.computedTypes as readonly ComputedNodeType[];

/** Node types whose work the flow machine invokes as an actor named by the type. */
export const WORK_NODE_TYPES = KIND_TABLES.workTypes as readonly WorkNodeType[];

/** The TypeBox schema of each node type. */
export const NODE_SCHEMAS = KIND_TABLES.schemas as { readonly [T in NodeType]: Kinds[T]['schema'] };

/** Checks of node types, by type, beyond their schemas; each gets the node as sent. */
export type NodeChecks = { [T in NodeType]?: (node: LooseNode) => NodeIssue[] };

/** Checks beyond each type's schema; they run on every node of the type, valid or not. */
export const NODE_CHECKS: NodeChecks = KIND_TABLES.checks;

/** Who decides each fixed outcome (`user`, `server` or `analysis`), by node type. */
export const DECIDERS = KIND_TABLES.deciders as {
  readonly [T in FixedOutcomeNodeType]: Readonly<Record<OutcomeKey<T>, Decider>>;
};

/**
 * Outcomes the page may report for the user outside test mode, by node type; the others are
 * decided by the server (codes, analyses) or by a reply (conversation).
 */
export const USER_OUTCOMES: Partial<Record<NodeType, readonly string[]>> = KIND_TABLES.userOutcomes;

/**
 * Outcomes of fixed-outcome nodes that fail or leave undecided the check they make; one of them on
 * the path means the session is not verified. Conversation outcome ids are the integrator's own
 * routing and never count; a data_validation step counts by its check result (see isVerified).
 */
export const FAILING_OUTCOMES: ReadonlySet<string> = KIND_TABLES.failingOutcomes;

/**
 * Whether a step through a node of that type failed or left undecided the check it made.
 * @example failingStep('face_scan', { outcome: 'notPassed' }) // true
 */
export function failingStep(type: NodeType, step: StepSeen): boolean {
  return KIND_TABLES.failing[type]?.(step) ?? false;
}

/** The array form of a flow, for OpenAPI. `validateFlow` is what checks a flow. */
export const FlowSchema = Type.Array(Type.Union(Object.values(NODE_SCHEMAS)), {
  maxItems: FLOW_LIMITS.maxNodes,
  title: 'Flow',
  description:
    'An array of nodes forming a directed acyclic graph with exactly one start node and at ' +
    'least one end node. Node ids are unique.',
});

type Resolver<T extends NodeType> = (node: NodeByType[T]) => ResolvedNodeByType[T];
const RESOLVERS = KIND_TABLES.resolvers as unknown as { [T in NodeType]: Resolver<T> };

/**
 * A valid node with the defaults of its optional fields filled in (similarity thresholds stay
 * out: the server applies the ones it measured).
 * @example nodeDefaults({ id: 'otp', type: 'two_factor_email', outcomes: {} }).otpLength // 6
 */
export function nodeDefaults<N extends FlowNode>(node: N): ResolvedNodeByType[N['type']] {
  const resolve = RESOLVERS[node.type] as Resolver<N['type']>;
  return resolve(node as NodeByType[N['type']]);
}

const nodeTypeSet: ReadonlySet<string> = new Set(NODE_TYPES);

/**
 * Whether a value names one of the node types.
 * @example isNodeType('face_scan') // true
 */
export function isNodeType(value: unknown): value is NodeType {
  return typeof value === 'string' && nodeTypeSet.has(value);
}

/**
 * Whether a node type routes by fixed outcome keys (an `outcomes` object).
 * @example isFixedOutcomeType('permissions') // true
 */
export function isFixedOutcomeType(type: NodeType): type is FixedOutcomeNodeType {
  return Object.hasOwn(FIXED_OUTCOMES, type);
}

/**
 * Whether a node type routes by an ordered array of conditional outcomes.
 * @example isConditionalType('conversation') // true
 */
export function isConditionalType(type: NodeType): type is ConditionalNodeType {
  return (CONDITIONAL_NODE_TYPES as readonly string[]).includes(type);
}

/**
 * Whether a node type's outcomes are named after its own fields (field_condition, external_call).
 * @example isComputedType('field_condition') // true
 */
export function isComputedType(type: NodeType): type is ComputedNodeType {
  return (COMPUTED_NODE_TYPES as readonly string[]).includes(type);
}

/** A node of a fixed-outcome type. */
export type FixedOutcomeNode = NodeByType[FixedOutcomeNodeType];
/** A node of a conditional type. */
export type ConditionalNode = NodeByType[ConditionalNodeType];

/**
 * Whether a node routes by fixed outcome keys; narrows the node.
 * @example isFixedOutcomeNode({ id: 'p', type: 'permissions', outcomes: {} }) // true
 */
export function isFixedOutcomeNode(node: FlowNode): node is FixedOutcomeNode {
  return isFixedOutcomeType(node.type);
}

/**
 * Whether a node routes by an ordered array of conditional outcomes; narrows the node.
 * @example isConditionalNode({ id: 'c', type: 'conversation', prompt: 'Hi', outcomes: [] }) // true
 */
export function isConditionalNode(node: FlowNode): node is ConditionalNode {
  return isConditionalType(node.type);
}
