import { describe, expect, it } from 'vitest';
import type { FlowNode } from '../api/types';
import { capturesOf, consentDue } from './consent';

const node = (type: string, extra: Record<string, unknown> = {}) =>
  ({ id: type, type, outcomes: {}, ...extra }) as unknown as FlowNode;

describe('consentDue', () => {
  it('asks before the camera, once', () => {
    expect(consentDue({ camera: true, microphone: true }, false)).toBe(true);
    expect(consentDue({ camera: true, microphone: false }, true)).toBe(false);
  });
  it('does not hold up a microphone-only request (typed answers need nothing)', () => {
    expect(consentDue({ camera: false, microphone: true }, false)).toBe(false);
  });
});

describe('capturesOf', () => {
  it('names what the flow captures', () => {
    const flow = [node('liveness_detection'), node('document_scan')];
    expect(capturesOf(flow, { speechRecognition: false })).toEqual({
      face: true,
      video: true,
      document: true,
      voice: false,
    });
  });
  it('says nothing of the face or documents for a flow that only talks', () => {
    const flow = [node('conversation', { prompt: 'Say: Hi', outcomes: [] })];
    expect(capturesOf(flow, { speechRecognition: true })).toEqual({
      face: false,
      video: false,
      document: false,
      voice: true,
    });
  });
});
