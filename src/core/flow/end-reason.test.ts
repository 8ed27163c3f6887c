import { describe, expect, it } from 'vitest';
import { endReasonOf, type EndingStep } from './end-reason';

describe('endReasonOf', () => {
  const cases: [EndingStep, string][] = [
    [{ type: 'permissions', outcome: 'permissionsDenied' }, 'noCamera'],
    [
      {
        type: 'liveness_detection',
        outcome: 'inconclusive',
        inconclusiveReason: 'cameraUnavailable',
      },
      'noCamera',
    ],
    [{ type: 'face_scan', outcome: 'error', report: { cameraUnavailable: true } }, 'noCamera'],
    [{ type: 'two_factor_email', outcome: 'failed_unverified' }, 'codeNotConfirmed'],
    [{ type: 'two_factor_sms', outcome: 'delivery_failed' }, 'codeNotConfirmed'],
    [{ type: 'document_scan', outcome: 'scanTimeout' }, 'timedOut'],
    [{ type: 'document_scan', outcome: 'userCancelled' }, 'left'],
    [{ type: 'enter_email', outcome: 'canceled' }, 'left'],
    [{ type: 'conversation', outcome: 'declines' }, 'stopped'],
    [{ type: 'data_validation', outcome: 'tooYoung' }, 'stopped'],
  ];
  it.each(cases)('%o ends as %s', (step, reason) => {
    expect(endReasonOf(step)).toBe(reason);
  });

  it('never tells a verdict: every failed check reads the same', () => {
    const checks: EndingStep[] = [
      { type: 'liveness_detection', outcome: 'deepfakeDetected' },
      { type: 'liveness_detection', outcome: 'noFace' },
      { type: 'liveness_detection', outcome: 'inconclusive', inconclusiveReason: 'timeout' },
      { type: 'face_scan', outcome: 'notPassed' },
      { type: 'face_compare', outcome: 'noMatch' },
      { type: 'recognition', outcome: 'noFace' },
      { type: 'document_scan', outcome: 'scanSuccess' },
    ];
    expect(new Set(checks.map(endReasonOf))).toEqual(new Set(['stepNotCompleted']));
  });
});
