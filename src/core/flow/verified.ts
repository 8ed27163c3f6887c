import { FAILING_OUTCOMES } from './outcomes';
import type { FlowPosition, PathStep } from './position';

/**
 * Whether one step failed or left undecided the check it made. Conversation outcomes are routing
 * chosen by the integrator; a data_validation step fails when its check yielded `failed`.
 * @example isFailingStep({ nodeId: 'f', type: 'face_scan', outcome: 'notPassed' }) // true
 */
export function isFailingStep(step: PathStep): boolean {
  if (step.type === 'conversation') return false;
  if (step.type === 'data_validation') return step.result === 'failed';
  return FAILING_OUTCOMES.has(step.outcome);
}

/**
 * The session's overall result: it reached an `end` node (status `complete`) and no node on the
 * way chose a failing or undecided outcome.
 * @example isVerified([{ nodeId: 'l', type: 'liveness_detection', outcome: 'livenessDetected' }], 'complete') // true
 */
export function isVerified(path: readonly PathStep[], status: FlowPosition['status']): boolean {
  return status === 'complete' && !path.some(isFailingStep);
}
