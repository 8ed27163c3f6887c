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
          "modules[0].type must be one of emailVerification, identityVerification, documentAuthentication (got 'phoneVerification')",
      },
      {
        path: 'modules[1].mail',
        message:
          "unknown field 'mail'; the fields here are type, name, email, publicRecognitionEnabled",
      },
    ]);
  });
});
