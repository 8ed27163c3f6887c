import { describe, expect, it } from 'vitest';
import type { NodeType } from './kinds';
import { FAILING_OUTCOMES } from './kinds';
import type { PathStep } from './position';
import { isVerified } from './verified';

const step = (type: NodeType, outcome: string, result?: 'passed' | 'failed'): PathStep => ({
  nodeId: `${type}-node`,
  type,
  outcome,
  ...(result ? { result } : {}),
});

const passing: PathStep[] = [
  step('permissions', 'permissionsGranted'),
  step('liveness_detection', 'livenessDetected'),
  step('document_scan', 'scanSuccess'),
  step('face_compare', 'match'),
  step('recognition', 'newUser'),
  step('enter_email', 'emailEntered'),
  step('two_factor_email', 'verified'),
];

describe('isVerified', () => {
  it('is true for a complete session whose every step passed', () => {
    expect(isVerified(passing, 'complete')).toBe(true);
  });

  it('is true for a complete session that passed no check at all', () => {
    expect(isVerified([], 'complete')).toBe(true);
  });

  it.each(['incomplete', 'active'] as const)('is false while or after ending %s', (status) => {
    expect(isVerified(passing, status)).toBe(false);
  });

  const failing: [NodeType, string][] = [
    ['permissions', 'permissionsDenied'],
    ['liveness_detection', 'deepfakeDetected'],
    ['liveness_detection', 'noFace'],
    ['liveness_detection', 'inconclusive'],
    ['recognition', 'noFace'],
    ['document_scan', 'userCancelled'],
    ['document_scan', 'scanTimeout'],
    ['face_scan', 'notPassed'],
    ['face_scan', 'cancelled'],
    ['face_scan', 'error'],
    ['face_compare', 'noMatch'],
    ['face_compare', 'imageUnavailable'],
    ['enter_email', 'canceled'],
    ['two_factor_email', 'failed_unverified'],
    ['two_factor_email', 'delivery_failed'],
    ['two_factor_sms', 'cancelled'],
    ['two_factor_sms', 'error'],
  ];
  it.each(failing)('is false once a %s node chose %s', (type, outcome) => {
    expect(isVerified([...passing, step(type, outcome)], 'complete')).toBe(false);
    expect(FAILING_OUTCOMES.has(outcome)).toBe(true);
  });

  it('does not read conversation outcome ids as failures, whatever they are called', () => {
    expect(isVerified([...passing, step('conversation', 'error')], 'complete')).toBe(true);
  });

  it('judges a data_validation step by its check result, not by the outcome id', () => {
    expect(isVerified([...passing, step('data_validation', 'error', 'passed')], 'complete')).toBe(
      true,
    );
    expect(isVerified([...passing, step('data_validation', 'ok', 'failed')], 'complete')).toBe(
      false,
    );
    expect(isVerified([...passing, step('data_validation', 'any')], 'complete')).toBe(true);
  });
});
