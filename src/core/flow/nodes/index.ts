import { Type } from '@sinclair/typebox';
import type { TSchema } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import type { NodeType } from '../node-types';
import type { LooseNode, NodeIssue } from './common';
import type { ConversationNode, ResolvedConversationNode } from './conversation';
import {
  ConversationNodeSchema,
  checkConversation,
  conversationWithDefaults,
} from './conversation';
import type { DataValidationNode, ResolvedDataValidationNode } from './data-validation';
import {
  DataValidationNodeSchema,
  checkDataValidation,
  dataValidationWithDefaults,
} from './data-validation';
import type { DocumentScanNode, ResolvedDocumentScanNode } from './document-scan';
import { DocumentScanNodeSchema, documentScanWithDefaults } from './document-scan';
import type { EndNode } from './end';
import { EndNodeSchema } from './end';
import type { EnterEmailNode } from './enter-email';
import { EnterEmailNodeSchema } from './enter-email';
import type { FaceCompareNode, ResolvedFaceCompareNode } from './face-compare';
import { FaceCompareNodeSchema, checkFaceCompare, faceCompareWithDefaults } from './face-compare';
import type { FaceScanNode, ResolvedFaceScanNode } from './face-scan';
import { FaceScanNodeSchema, faceScanWithDefaults } from './face-scan';
import type { LivenessDetectionNode, ResolvedLivenessDetectionNode } from './liveness-detection';
import { LivenessDetectionNodeSchema, livenessDetectionWithDefaults } from './liveness-detection';
import type { PermissionsNode, ResolvedPermissionsNode } from './permissions';
import { PermissionsNodeSchema, permissionsWithDefaults } from './permissions';
import type { RecognitionNode } from './recognition';
import { RecognitionNodeSchema } from './recognition';
import type { StartNode } from './start';
import { StartNodeSchema } from './start';
import type { ResolvedTwoFactorEmailNode, TwoFactorEmailNode } from './two-factor-email';
import {
  TwoFactorEmailNodeSchema,
  checkTwoFactorEmail,
  twoFactorEmailWithDefaults,
} from './two-factor-email';
import type { ResolvedTwoFactorSmsNode, TwoFactorSmsNode } from './two-factor-sms';
import {
  TwoFactorSmsNodeSchema,
  checkTwoFactorSms,
  twoFactorSmsWithDefaults,
} from './two-factor-sms';

/** Each node type's node, as the integrator sends it. */
export interface NodeByType {
  start: StartNode;
  end: EndNode;
  conversation: ConversationNode;
  recognition: RecognitionNode;
  liveness_detection: LivenessDetectionNode;
  document_scan: DocumentScanNode;
  face_scan: FaceScanNode;
  face_compare: FaceCompareNode;
  enter_email: EnterEmailNode;
  two_factor_email: TwoFactorEmailNode;
  two_factor_sms: TwoFactorSmsNode;
  data_validation: DataValidationNode;
  permissions: PermissionsNode;
}

/** Each node type's node with every optional field that has a default filled in. */
export interface ResolvedNodeByType extends NodeByType {
  conversation: ResolvedConversationNode;
  liveness_detection: ResolvedLivenessDetectionNode;
  document_scan: ResolvedDocumentScanNode;
  face_scan: ResolvedFaceScanNode;
  face_compare: ResolvedFaceCompareNode;
  two_factor_email: ResolvedTwoFactorEmailNode;
  two_factor_sms: ResolvedTwoFactorSmsNode;
  data_validation: ResolvedDataValidationNode;
  permissions: ResolvedPermissionsNode;
}

/** One node of a flow: the union of the thirteen node types. */
export type FlowNode = NodeByType[NodeType];
export type ResolvedNode<T extends NodeType = NodeType> = ResolvedNodeByType[T];
/** A flow: an array of nodes forming a DAG with one start and at least one end. */
export type Flow = FlowNode[];

/** The TypeBox schema of each node type. */
export const NODE_SCHEMAS = {
  start: StartNodeSchema,
  end: EndNodeSchema,
  conversation: ConversationNodeSchema,
  recognition: RecognitionNodeSchema,
  liveness_detection: LivenessDetectionNodeSchema,
  document_scan: DocumentScanNodeSchema,
  face_scan: FaceScanNodeSchema,
  face_compare: FaceCompareNodeSchema,
  enter_email: EnterEmailNodeSchema,
  two_factor_email: TwoFactorEmailNodeSchema,
  two_factor_sms: TwoFactorSmsNodeSchema,
  data_validation: DataValidationNodeSchema,
  permissions: PermissionsNodeSchema,
} as const satisfies Record<NodeType, TSchema>;

/** The array form of a flow, for OpenAPI. `validateFlow` is what checks a flow. */
export const FlowSchema = Type.Array(Type.Union(Object.values(NODE_SCHEMAS)), {
  maxItems: FLOW_LIMITS.maxNodes,
  title: 'Flow',
  description:
    'An array of nodes forming a directed acyclic graph with exactly one start node and at ' +
    'least one end node. Node ids are unique.',
});

type Resolver<T extends NodeType> = (node: NodeByType[T]) => ResolvedNodeByType[T];
const same = <N>(node: N): N => node;

const RESOLVERS: { [T in NodeType]: Resolver<T> } = {
  start: same,
  end: same,
  conversation: conversationWithDefaults,
  recognition: same,
  liveness_detection: livenessDetectionWithDefaults,
  document_scan: documentScanWithDefaults,
  face_scan: faceScanWithDefaults,
  face_compare: faceCompareWithDefaults,
  enter_email: same,
  two_factor_email: twoFactorEmailWithDefaults,
  two_factor_sms: twoFactorSmsWithDefaults,
  data_validation: dataValidationWithDefaults,
  permissions: permissionsWithDefaults,
};

/**
 * A valid node with the defaults of its optional fields filled in (similarity thresholds stay
 * out: the server applies the ones it measured).
 * @example nodeDefaults({ id: 'otp', type: 'two_factor_email', outcomes: {} }).otpLength // 6
 */
export function nodeDefaults<N extends FlowNode>(node: N): ResolvedNodeByType[N['type']] {
  const resolve = RESOLVERS[node.type] as Resolver<N['type']>;
  return resolve(node as NodeByType[N['type']]);
}

/** Checks of node types, by type, beyond their schemas; each gets the node as sent. */
export type NodeChecks = { [T in NodeType]?: (node: LooseNode) => NodeIssue[] };

/** Checks beyond each type's schema; they run on every node of the type, valid or not. */
export const NODE_CHECKS: NodeChecks = {
  conversation: checkConversation,
  data_validation: checkDataValidation,
  face_compare: checkFaceCompare,
  two_factor_email: checkTwoFactorEmail,
  two_factor_sms: checkTwoFactorSms,
};
