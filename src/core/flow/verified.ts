import { failingStep } from './kinds';
import type { FlowPosition, PathStep } from './position';

/**
 * Whether one step failed or left undecided the check it made, as its kind tells: a failing
 * fixed outcome; never a conversation outcome (routing chosen by the integrator); a
 * data_validation step whose check yielded `failed`.
 * @example isFailingStep({ nodeId: 'f', type: 'face_scan', outcome: 'notPassed' }) // true
 */
export function isFailingStep(step: PathStep): boolean {
  return failingStep(step.type, step);
}

/**
 * The session's overall result: it reached an `end` node (status `complete`) and no node on the
 * way chose a failing or undecided outcome.
 * @example isVerified([{ nodeId: 'l', type: 'liveness_detection', outcome: 'livenessDetected' }], 'complete') // true
 */
export function isVerified(path: readonly PathStep[], status: FlowPosition['status']): boolean {
  return status === 'complete' && !path.some(isFailingStep);
}
