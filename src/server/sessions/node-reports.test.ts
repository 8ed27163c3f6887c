/**
 * Node reports of every kind, from what the nodes record (their `report`), as the API shows them:
 * the original product's members (compat.md §4.4, §4.5), checked against its shapes.
 */
import { describe, expect, it } from 'vitest';
import type { StoredNodeReport } from '../../core/api';
import { reportBeforeSdkShapes } from '../../core/api';
import { conformanceProblems } from '../conformance/shape';
import { presentNodeReport } from './node-reports';

const at = 1_764_000_000_000;
const stored = (
  type: StoredNodeReport['type'],
  outcome: string,
  report?: Record<string, unknown>,
  extra: Partial<StoredNodeReport> = {},
): StoredNodeReport => ({
  nodeId: type,
  type,
  outcome,
  createdAt: at,
  ...(report ? { report } : {}),
  ...extra,
});

const shown = (r: StoredNodeReport) => {
  const out = presentNodeReport(r);
  expect(conformanceProblems(out, 'node-report')).toEqual([]);
  return out;
};

describe('presentNodeReport', () => {
  it('document_scan: the BlinkID-named report beside the fields read', () => {
    const fields = {
      firstName: 'ANNA MARIA',
      lastName: 'ERIKSSON',
      documentNumber: 'L898902C3',
      nationality: 'UTO',
      dateOfBirth: '1974-08-12',
      expiryDate: '2032-04-15',
      sex: 'F',
      documentType: 'passport',
      issuingCountry: 'UTO',
    };
    const r = shown(
      stored('document_scan', 'scanSuccess', {
        format: 'TD3',
        fields,
        documentChecks: [],
        documentPhoto: 'med_1',
      }),
    );
    expect(r.report).toMatchObject({
      mode: 'mrz-passport',
      documentClassInfo: { type: 'passport', isoAlpha3CountryCode: 'UTO' },
      fullName: { latin: { value: 'ANNA MARIA ERIKSSON' }, arabic: { value: '' } },
      dateOfBirth: { year: 1974, month: 8, day: 12, filledByDomainKnowledge: false },
      dateOfExpiry: { year: 2032, month: 4, day: 15 },
      subResults: [],
      fields,
    });
    // A cancelled scan read nothing: no report members are made up.
    expect(shown(stored('document_scan', 'userCancelled', { attempts: [] })).report).toEqual({
      attempts: [],
      documentClassInfo: {},
      subResults: [],
    });
  });

  it('face_scan and face_compare: the comparison as the SDK reports it', () => {
    const scan = shown(
      stored('face_scan', 'passed', {
        challenges: ['turnLeft'],
        liveness: { outcome: 'livenessDetected' },
        threshold: 0.42,
        similarity: 0.8,
      }),
    );
    expect(scan.report).toMatchObject({
      livenessChallengePassed: true,
      compareFacesReport: {
        isMatch: true,
        similarity: 0.8,
        sourceImageFaceFound: true,
        targetImageFaceFound: true,
      },
      threshold: 0.42,
    });
    const noRef = shown(
      stored('face_scan', 'error', { challenges: [], reason: 'noFaceInReference' }),
    );
    expect(noRef.report?.['compareFacesReport']).toMatchObject({
      isMatch: false,
      targetImageFaceFound: false,
      error: 'noFaceInReference',
    });
    expect(noRef.report).not.toHaveProperty('livenessChallengePassed');
    const missing = shown(
      stored('face_compare', 'imageUnavailable', {
        sourceA: { source: 'faceScan', mediaId: 'med_1' },
        sourceB: { source: 'documentPhoto', reason: 'noImage', message: 'none' },
        threshold: 0.42,
      }),
    );
    expect(missing.report).toMatchObject({
      isMatch: false,
      sourceAImageFound: true,
      sourceBImageFound: false,
    });
  });

  it('recognition: strings only, the measurements in details', () => {
    const r = shown(
      stored('recognition', 'recognized', {
        threshold: 0.42,
        compared: 3,
        similarity: 0.9,
        clientReferenceId: 'user-1',
        sessionId: 'sess_1',
        providedData: { name: 'Eileen', age: 42, vip: true },
      }),
    );
    expect(r.report).toEqual({
      name: 'Eileen',
      age: '42',
      vip: 'true',
      clientReferenceId: 'user-1',
      sessionId: 'sess_1',
    });
    expect(r.details).toMatchObject({ similarity: 0.9, compared: 3 });
    expect(shown(stored('recognition', 'newUser', { compared: 0 })).report).toBeUndefined();
  });

  it('two-factor, email and liveness members; conversation as it was', () => {
    expect(
      shown(stored('two_factor_sms', 'verified', { channel: 'sms', sentTo: '+33•••78' })).report,
    ).toMatchObject({ phoneNumber: '+33•••78', channel: 'sms' });
    expect(
      shown(stored('two_factor_email', 'verified', { channel: 'email', sentTo: 'j•••@x.co' }))
        .report,
    ).toMatchObject({ email: 'j•••@x.co' });
    // No address known (a tester's choice): the SDK's report cannot be made.
    const unsent = shown(stored('two_factor_email', 'cancelled', { testMode: true }));
    expect(unsent.report).toBeUndefined();
    expect(unsent.details).toEqual({ testMode: true });
    expect(shown(stored('enter_email', 'emailEntered', { email: 'a@b.co' })).email).toBe('a@b.co');
    expect(
      shown(
        stored(
          'liveness_detection',
          'inconclusive',
          { frames: 12, scores: null },
          { inconclusiveReason: 'provider_error' },
        ),
      ),
    ).toMatchObject({
      captureStatus: 'capturedUnscored',
      errored: true,
      errorCode: 'provider_error',
    });
    const talk = stored('conversation', 'yes', { reply: 'sure' });
    expect(shown(talk)).toEqual(talk);
  });

  it('reads back as 2025-09-01 had it', () => {
    const kinds = [
      stored('face_scan', 'passed', { challenges: [], similarity: 0.8, threshold: 0.4 }),
      stored('face_compare', 'match', { similarity: 0.9, threshold: 0.4 }),
      stored('recognition', 'recognized', { similarity: 0.9, providedData: { age: 4 } }),
      stored('two_factor_email', 'verified', { channel: 'email', sentTo: 'a•••@b.co' }),
      stored('document_scan', 'scanSuccess', { format: 'TD1', fields: { firstName: 'A' } }),
      stored('document_scan', 'scanTimeout', { ended: 'timeout' }),
      stored('two_factor_sms', 'cancelled', { testMode: true }),
      stored('liveness_detection', 'livenessDetected', { frames: 3, scores: {} }),
      stored('enter_email', 'emailEntered', { email: 'a@b.co' }),
    ];
    const report = { transcript: [], isVerified: true, nodeReports: kinds.map(presentNodeReport) };
    expect(reportBeforeSdkShapes(report)['nodeReports']).toEqual(kinds);
  });
});
