/**
 * The flow core: what a flow is (TypeBox schemas of the thirteen node types), whether it is
 * valid (`validateFlow`), the XState machine it becomes (`compileFlow`), positions checked by
 * that machine (`startFlow`, `advanceFlow`), the `isVerified` rule and legacy `modules`.
 * Pure: no DOM, no Node; shared by the server and the hosted page. See docs/flows.md.
 */
export type { NodeType, FixedOutcomeNodeType, ConditionalNodeType } from './node-types';
export {
  NODE_TYPES,
  FIXED_OUTCOMES,
  CONDITIONAL_NODE_TYPES,
  isNodeType,
  isFixedOutcomeType,
  isConditionalType,
} from './node-types';
export { FLOW_LIMITS } from './limits';

export type { Flow, FlowNode, NodeByType, ResolvedNode, ResolvedNodeByType } from './nodes';
export { FlowSchema, NODE_SCHEMAS, nodeDefaults } from './nodes';
export type { StartNode } from './nodes/start';
export type { EndNode } from './nodes/end';
export type { ConversationNode } from './nodes/conversation';
export type { RecognitionNode } from './nodes/recognition';
export type { LivenessDetectionNode } from './nodes/liveness-detection';
export type { DocumentScanNode, DocumentType } from './nodes/document-scan';
export { DOCUMENT_TYPES } from './nodes/document-scan';
export type { FaceScanNode } from './nodes/face-scan';
export type { FaceCompareNode, FaceSource } from './nodes/face-compare';
export { FACE_SOURCES } from './nodes/face-compare';
export type { EnterEmailNode } from './nodes/enter-email';
export type { TwoFactorEmailNode } from './nodes/two-factor-email';
export type { TwoFactorSmsNode } from './nodes/two-factor-sms';
export type { DataValidationNode, ValidationAction, CheckResult } from './nodes/data-validation';
export { VALIDATION_ACTIONS, FIELD_ROOTS, checkResultOf } from './nodes/data-validation';
export type { PermissionsNode } from './nodes/permissions';
export { CODE_PLACEHOLDER } from './nodes/otp-options';

export type { FlowProblem } from './problems';
export { FlowValidationError } from './problems';
export { validateFlow } from './validate';

export { outcomesOf, targetsOf, FAILING_OUTCOMES } from './outcomes';
export type { FlowEvent, FlowContext, NodeActorInput, WorkNodeType } from './machine-setup';
export { flowSetup } from './machine-setup';
export type { FlowMachine, FlowSnapshot } from './compile';
export { compileFlow } from './compile';
export type { PathStep, FlowPosition, AdvanceResult } from './position';
export { startFlow, advanceFlow, notCurrent } from './advance';
export { isVerified, isFailingStep } from './verified';

export type { LegacyModule } from './legacy';
export {
  LegacyModuleSchema,
  LegacyModulesSchema,
  LEGACY_MODULE_TYPES,
  modulesToFlow,
  validateModules,
  legacyProvidedData,
} from './legacy';
