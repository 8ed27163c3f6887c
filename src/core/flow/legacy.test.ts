import { describe, expect, it } from 'vitest';
import { advanceFlow, startFlow } from './advance';
import type { LegacyModule } from './legacy';
import { legacyProvidedData, modulesToFlow, validateModules } from './legacy';
import type { Flow, FlowNode } from './kinds';
import { outcomesOf } from './outcomes';
import { validateFlow } from './validate';
import { isVerified } from './verified';

/** The chain of node types a flow takes when every node passes. */
function happyChain(flow: Flow): string[] {
  const byId = new Map(flow.map((n) => [n.id, n]));
  const chain: string[] = [];
  let node = byId.get((flow[0] as { outcome: string }).outcome);
  while (node && node.type !== 'end') {
    chain.push(node.type);
    const routes = (node as { outcomes: Record<string, string> }).outcomes;
    node = byId.get(routes[outcomesOf(node)[0] as string] ?? '');
  }
  return chain;
}

/** Each node's outcomes that do not lead to the failure end. */
function passingOutcomes(flow: Flow): Record<string, string[]> {
  return Object.fromEntries(
    flow
      .filter((n): n is Extract<FlowNode, { outcomes: object }> => 'outcomes' in n)
      .map((n) => [
        n.id,
        Object.entries(n.outcomes as Record<string, string>)
          .filter(([, target]) => target !== 'end_failed')
          .map(([key]) => key),
      ]),
  );
}

describe('modulesToFlow', () => {
  it('emailVerification: enter_email then two_factor_email', () => {
    const flow = modulesToFlow([{ type: 'emailVerification' }]);
    expect(validateFlow(flow)).toEqual([]);
    expect(happyChain(flow)).toEqual(['enter_email', 'two_factor_email']);
    expect(passingOutcomes(flow)).toEqual({
      m1_enter_email: ['emailEntered'],
      m1_two_factor_email: ['verified'],
    });
  });

  it('emailVerification with an email: no enter_email, the address goes to providedData', () => {
    const modules: LegacyModule[] = [{ type: 'emailVerification', email: 'ana@example.com' }];
    const flow = modulesToFlow(modules);
    expect(validateFlow(flow)).toEqual([]);
    expect(happyChain(flow)).toEqual(['two_factor_email']);
    expect(legacyProvidedData(modules)).toEqual({ email: 'ana@example.com' });
    expect(legacyProvidedData([{ type: 'identityVerification' }])).toEqual({});
  });

  it('smsVerification: two_factor_sms, its phone going to providedData', () => {
    const modules: LegacyModule[] = [{ type: 'smsVerification', phone: '+33612345678' }];
    const flow = modulesToFlow(modules);
    expect(validateFlow(flow)).toEqual([]);
    expect(happyChain(flow)).toEqual(['two_factor_sms']);
    expect(legacyProvidedData(modules)).toEqual({ phone: '+33612345678' });
  });

  it('ageEstimation: document_scan then a minAge check on the document date of birth', () => {
    const flow = modulesToFlow([{ type: 'ageEstimation', age: 21 }]);
    expect(validateFlow(flow)).toEqual([]);
    const check = flow.find((n) => n.type === 'data_validation');
    expect(check).toEqual({
      id: 'm1_age_check',
      type: 'data_validation',
      validation: { field: 'extractedData.dateOfBirth', action: 'minAge', value: 21 },
      outcomes: [
        { id: 'passed', condition: 'passed', targetNodeId: 'end' },
        { id: 'failed', condition: 'failed', targetNodeId: 'end_failed' },
      ],
    });
    const scan = startFlow(flow);
    const read = advanceFlow(flow, scan, { nodeId: 'm1_document_scan', outcome: 'scanSuccess' });
    expect(read.ok && read.position.nodeId).toBe('m1_age_check');
    if (!read.ok) return;
    const passed = advanceFlow(flow, read.position, { nodeId: 'm1_age_check', outcome: 'passed' });
    const failed = advanceFlow(flow, read.position, { nodeId: 'm1_age_check', outcome: 'failed' });
    expect(passed.ok && isVerified(passed.position.path, passed.position.status)).toBe(true);
    expect(failed.ok && isVerified(failed.position.path, failed.position.status)).toBe(false);
  });

  it('refuses proofOfIntent and knowledgeVerify as not supported, and an ageEstimation without age', () => {
    expect(
      validateModules([
        { type: 'proofOfIntent', requestedData: [{ key: 'reason' }] },
        { type: 'knowledgeVerify' },
        { type: 'ageEstimation' },
      ]),
    ).toEqual([
      {
        path: 'modules[0].type',
        message: expect.stringContaining('proofOfIntent is not supported') as unknown,
      },
      {
        path: 'modules[1].type',
        message: expect.stringContaining('knowledgeVerify is not supported') as unknown,
      },
      { path: 'modules[2].age', message: 'age is required for an ageEstimation module' },
    ]);
  });

  it('documentAuthentication: document_scan then face_compare of the selfie and the document', () => {
    const flow = modulesToFlow([{ type: 'documentAuthentication' }]);
    expect(validateFlow(flow)).toEqual([]);
    expect(happyChain(flow)).toEqual(['document_scan', 'face_compare']);
    expect(flow.find((n) => n.type === 'face_compare')).toMatchObject({
      sourceA: { source: 'sessionVideo' },
      sourceB: { source: 'documentPhoto' },
    });
    expect(passingOutcomes(flow)).toEqual({
      m1_document_scan: ['scanSuccess'],
      m1_face_compare: ['match'],
    });
  });

  it('identityVerification: permissions, liveness_detection, face_scan', () => {
    const flow = modulesToFlow([{ type: 'identityVerification' }]);
    expect(validateFlow(flow)).toEqual([]);
    expect(happyChain(flow)).toEqual(['permissions', 'liveness_detection', 'face_scan']);
  });

  it('identityVerification with publicRecognitionEnabled adds recognition, passed by a new user too', () => {
    const flow = modulesToFlow([{ type: 'identityVerification', publicRecognitionEnabled: true }]);
    expect(validateFlow(flow)).toEqual([]);
    expect(happyChain(flow)).toEqual([
      'permissions',
      'liveness_detection',
      'recognition',
      'face_scan',
    ]);
    expect(passingOutcomes(flow).m1_recognition).toEqual(['recognized', 'newUser']);
  });

  it('chains several modules in order; a face scan done earlier is the selfie of the comparison', () => {
    const flow = modulesToFlow([
      { type: 'identityVerification' },
      { type: 'documentAuthentication' },
      { type: 'emailVerification' },
    ]);
    expect(validateFlow(flow)).toEqual([]);
    expect(happyChain(flow)).toEqual([
      'permissions',
      'liveness_detection',
      'face_scan',
      'document_scan',
      'face_compare',
      'enter_email',
      'two_factor_email',
    ]);
    expect(flow.find((n) => n.type === 'face_compare')).toMatchObject({
      sourceA: { source: 'faceScan' },
    });
  });

  it('gives a verified session on the happy path and an unverified one on any failure', () => {
    const flow = modulesToFlow([{ type: 'identityVerification' }]);
    let position = startFlow(flow);
    for (const outcome of ['permissionsGranted', 'livenessDetected', 'passed']) {
      const result = advanceFlow(flow, position, { nodeId: position.nodeId ?? '', outcome });
      if (!result.ok) throw new Error(result.message);
      position = result.position;
    }
    expect(position.status).toBe('complete');
    expect(isVerified(position.path, position.status)).toBe(true);

    const start = startFlow(flow);
    const refused = advanceFlow(flow, start, {
      nodeId: 'm1_permissions',
      outcome: 'permissionsDenied',
    });
    if (!refused.ok) throw new Error(refused.message);
    expect(refused.position.status).toBe('complete');
    expect(isVerified(refused.position.path, refused.position.status)).toBe(false);
  });
});

describe('validateModules', () => {
  it('accepts the three module types', () => {
    expect(
      validateModules([
        { type: 'emailVerification', name: 'Email', email: 'a@b.co' },
        { type: 'identityVerification', publicRecognitionEnabled: false },
        { type: 'documentAuthentication' },
      ]),
    ).toEqual([]);
  });

  it('refuses anything but a non-empty array of known modules, naming each problem', () => {
    expect(validateModules({ type: 'emailVerification' })).toEqual([
      { path: 'modules', message: 'modules must be an array' },
    ]);
    expect(validateModules([])).toEqual([
      { path: 'modules', message: 'modules must have at least 1 item' },
    ]);
    expect(
      validateModules([{ type: 'phoneVerification' }, { type: 'emailVerification', mail: 'x' }]),
    ).toEqual([
      {
        path: 'modules[0].type',
        message:
          "modules[0].type must be one of emailVerification, smsVerification, identityVerification, documentAuthentication, ageEstimation, proofOfIntent, knowledgeVerify (got 'phoneVerification')",
      },
      {
        path: 'modules[1].mail',
        message:
          "unknown field 'mail'; the fields here are type, name, email, publicRecognitionEnabled, phone, age, requestedData",
      },
    ]);
  });
});
