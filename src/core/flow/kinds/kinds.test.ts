import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FlowNode, NodeReportByType, NodeStep, OutcomeDecidedBy, OutcomeOf } from '.';
import { nodeDefaults } from '.';
import { checkResultOf } from './data_validation';

describe('nodeDefaults', () => {
  const cases: [FlowNode, Record<string, unknown>][] = [
    [
      { id: 'p', type: 'permissions', outcomes: {} },
      { permissions: { camera: true, microphone: true } },
    ],
    [
      { id: 'p', type: 'permissions', permissions: { microphone: false }, outcomes: {} },
      { permissions: { camera: true, microphone: false } },
    ],
    [
      { id: 'o', type: 'two_factor_email', outcomes: {} },
      { otpLength: 6, expirySeconds: 300, maxAttempts: 3, resendAfterSeconds: 30 },
    ],
    [
      { id: 's', type: 'two_factor_sms', otpLength: 8, outcomes: {} },
      { otpLength: 8, expirySeconds: 300, maxAttempts: 3, resendAfterSeconds: 30 },
    ],
    [
      { id: 'l', type: 'liveness_detection', outcomes: {} },
      { challenges: 3, timeoutSeconds: 60, maxAttempts: 3 },
    ],
    [
      { id: 'd', type: 'document_scan', outcomes: {} },
      {
        allowedDocumentTypes: ['passport', 'id', 'residence-permit', 'visa', 'dl'],
        scanningMode: 'single',
        showTorchButton: true,
        showCameraSwitch: true,
        showMirrorCameraButton: true,
        timeoutSeconds: 120,
      },
    ],
    [
      { id: 'f', type: 'face_scan', outcomes: {} },
      { requireLivenessChallenge: false, maxAttempts: 3 },
    ],
    [
      { id: 'f', type: 'face_scan', maxAttempts: 1, outcomes: {} },
      { requireLivenessChallenge: false, maxAttempts: 1 },
    ],
    [
      { id: 'c', type: 'face_compare', outcomes: {} },
      { sourceA: { source: 'faceScan' }, sourceB: { source: 'documentPhoto' } },
    ],
    [
      {
        id: 'v',
        type: 'conversation',
        prompt: 'Hi',
        outcomes: [{ id: 'a', targetNodeId: 'x' }],
      },
      { doesNotRequireReply: false, outcomes: [{ id: 'a', condition: '', targetNodeId: 'x' }] },
    ],
  ];

  it.each(cases)('fills in the defaults of a $type node', (node, expected) => {
    const resolved = nodeDefaults(node);
    expect(resolved).toMatchObject({ ...node, ...expected });
  });

  it('leaves similarity thresholds to the server', () => {
    expect(nodeDefaults({ id: 'f', type: 'face_scan', outcomes: {} })).not.toHaveProperty(
      'similarityThreshold',
    );
    expect(nodeDefaults({ id: 'r', type: 'recognition', outcomes: {} })).toEqual({
      id: 'r',
      type: 'recognition',
      outcomes: {},
    });
  });

  it('does not change the node it is given', () => {
    const node: FlowNode = { id: 'd', type: 'document_scan', outcomes: {} };
    const resolved = nodeDefaults(node);
    resolved.allowedDocumentTypes.pop();
    expect(node).toEqual({ id: 'd', type: 'document_scan', outcomes: {} });
    expect(nodeDefaults(node).allowedDocumentTypes).toEqual([
      'passport',
      'id',
      'residence-permit',
      'visa',
      'dl',
    ]);
  });
});

describe('checkResultOf (what a data_validation check yielded, from the outcome chosen)', () => {
  it('reads the chosen outcome’s own condition', () => {
    const outcomes = [{ condition: 'failed' }, { condition: 'passed' }];
    expect(checkResultOf(outcomes, 0)).toBe('failed');
    expect(checkResultOf(outcomes, 1)).toBe('passed');
  });

  it('infers it for an empty condition from the conditions that did not match before it', () => {
    expect(checkResultOf([{ condition: 'passed' }, { condition: '' }], 1)).toBe('failed');
    expect(checkResultOf([{ condition: 'failed' }, {}], 1)).toBe('passed');
  });

  it('cannot tell when the chosen outcome is taken whatever the check says', () => {
    expect(checkResultOf([{ condition: '' }, { condition: 'passed' }], 0)).toBeUndefined();
  });
});

describe("the types a kind's server node module is written against", () => {
  it('name the outcomes of a type, and the ones each decider decides', () => {
    expectTypeOf<OutcomeOf<'face_compare'>>().toEqualTypeOf<
      'match' | 'noMatch' | 'imageUnavailable'
    >();
    expectTypeOf<OutcomeOf<'conversation'>>().toEqualTypeOf<string>();
    expectTypeOf<OutcomeOf<'end'>>().toEqualTypeOf<never>();
    expectTypeOf<OutcomeDecidedBy<'document_scan', 'user'>>().toEqualTypeOf<'userCancelled'>();
    expectTypeOf<OutcomeDecidedBy<'document_scan', 'server'>>().toEqualTypeOf<'scanTimeout'>();
    expectTypeOf<OutcomeDecidedBy<'face_scan', 'analysis'>>().toEqualTypeOf<
      'passed' | 'notPassed' | 'error'
    >();
  });

  it('type the step a node hands on with its own report', () => {
    expectTypeOf<NodeStep<'enter_email'>['report']>().toEqualTypeOf<
      NodeReportByType['enter_email'] | undefined
    >();
    expectTypeOf<NodeReportByType['two_factor_sms']['channel']>().toEqualTypeOf<'email' | 'sms'>();
  });
});
