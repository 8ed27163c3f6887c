/**
 * The flow core: what a flow is (the node kinds of `kinds/`, their TypeBox schemas), whether it is
 * valid (`validateFlow`), the XState machine it becomes (`compileFlow`, or `storedFlowMachine` for
 * a stored flow without the kinds), positions checked by
 * that machine (`startFlow`, `advanceFlow`), the `isVerified` rule and legacy `modules`.
 * Pure: no DOM, no Node; shared by the server and the hosted page. See docs/flows.md.
 */
export type {
  NodeType,
  FixedOutcomeNodeType,
  ConditionalNodeType,
  OutcomeKey,
  FixedOutcomeNode,
  ConditionalNode,
  Flow,
  FlowNode,
  NodeByType,
  ResolvedNode,
  ResolvedNodeByType,
  NodeReportByType,
  NodeChecks,
  OutcomeOf,
  OutcomeDecidedBy,
  NodeStep,
} from './kinds';
export {
  KINDS,
  NODE_TYPES,
  FIXED_OUTCOMES,
  CONDITIONAL_NODE_TYPES,
  WORK_NODE_TYPES,
  NODE_SCHEMAS,
  DECIDERS,
  USER_OUTCOMES,
  FAILING_OUTCOMES,
  FlowSchema,
  nodeDefaults,
  isNodeType,
  isFixedOutcomeType,
  isConditionalType,
  isFixedOutcomeNode,
  isConditionalNode,
} from './kinds';
export type { Kind, AnyKind, Decider, OutcomeRule, KindRoutes } from './kinds/kind';
export { FLOW_LIMITS } from './limits';

export type { StartNode } from './kinds/start';
export type { EndNode } from './kinds/end';
export type { ConversationNode, ConversationReport } from './kinds/conversation';
export type { RecognitionNode, RecognitionReport } from './kinds/recognition';
export type { LivenessDetectionNode, LivenessDetectionReport } from './kinds/liveness_detection';
export type { DocumentScanNode, DocumentScanReport } from './kinds/document_scan';
export { documentScanWithDefaults } from './kinds/document_scan';
export {
  DOCUMENT_KINDS,
  DOCUMENT_TYPES,
  READABLE_TYPES,
  documentKindOf,
  kindsOf,
  type DocumentKind,
  type DocumentType,
} from '../documents/types';
export type { FaceScanNode, FaceScanReport } from './kinds/face_scan';
export type { FaceCompareNode, FaceCompareReport, FaceSource } from './kinds/face_compare';
export { FACE_SOURCES } from './kinds/face_compare';
export type { EnterEmailNode, EnterEmailReport } from './kinds/enter_email';
export type { TwoFactorEmailNode } from './kinds/two_factor_email';
export type { TwoFactorSmsNode } from './kinds/two_factor_sms';
export type { OtpReport } from './kinds/otp';
export type {
  DataValidationNode,
  DataValidationReport,
  ValidationAction,
  CheckResult,
} from './kinds/data_validation';
export { VALIDATION_ACTIONS, FIELD_ROOTS, checkResultOf } from './kinds/data_validation';
export type { PermissionsNode, PermissionsReport } from './kinds/permissions';
export { CODE_PLACEHOLDER } from './kinds/otp';

export type { FlowProblem } from './problems';
export { FlowValidationError } from './problems';
export { validateFlow } from './validate';

export { outcomesOf, targetsOf } from './outcomes';
export type {
  FlowEvent,
  FlowContext,
  PositionEvent,
  NodeActorEvent,
  NodeActorInput,
  NodeActorLogic,
  NodeActors,
  WorkNodeType,
} from './machine-setup';
export { flowSetupFor } from './machine-setup';
export type { FlowMachine, FlowSnapshot } from './compile';
export { compileFlow, flowSetup } from './compile';
// The hosted page imports these two from their own modules: this index brings the kinds' schemas.
export type { RouteTaken, StartAt } from './machine-build';
export { nodeRoutes } from './machine-build';
export { storedFlowMachine } from './stored-machine';
export type { PathStep, FlowPosition, AdvanceResult } from './position';
export { startFlow, advanceFlow, notCurrent } from './advance';
export { isVerified, isFailingStep } from './verified';
export type { EndReason, EndingStep } from './end-reason';
export { END_REASONS, endReasonOf } from './end-reason';
export type { FlowProgress } from './progress';
export { flowProgress, UNSEEN_NODE_TYPES } from './progress';

export type { LegacyModule } from './legacy';
export {
  LegacyModuleSchema,
  LegacyModulesSchema,
  LEGACY_MODULE_TYPES,
  modulesToFlow,
  validateModules,
  legacyProvidedData,
} from './legacy';
