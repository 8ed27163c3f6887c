import { describe, expect, it } from 'vitest';
import type { FlowNode, Position } from '../api/types';
import { askBefore, askedAlong, devicesFor } from './devices';
import { devicesOfPermissionsNode } from './permissions/devices';

const node = (n: Record<string, unknown>) => n as unknown as FlowNode;
const none = { camera: false, microphone: false };
const voice = { speechRecognition: true };
const noVoice = { speechRecognition: false };

describe('devicesFor', () => {
  it('gives camera nodes the camera', () => {
    for (const type of ['liveness_detection', 'document_scan', 'face_scan', 'recognition']) {
      expect(devicesFor(node({ id: 'x', type, outcomes: {} }), voice)).toEqual({
        camera: true,
        microphone: false,
      });
    }
  });

  it('gives face_compare the camera only for the session video', () => {
    expect(devicesFor(node({ id: 'x', type: 'face_compare', outcomes: {} }), voice).camera).toBe(
      false,
    );
    expect(
      devicesFor(
        node({ id: 'x', type: 'face_compare', sourceB: { source: 'sessionVideo' }, outcomes: {} }),
        voice,
      ).camera,
    ).toBe(true);
  });

  it('gives a conversation the microphone only where speech can be recognised and a reply is due', () => {
    const talk = node({ id: 'c', type: 'conversation', prompt: 'Hi', outcomes: [] });
    expect(devicesFor(talk, voice)).toEqual({ camera: false, microphone: true });
    expect(devicesFor(talk, noVoice)).toEqual(none);
    expect(
      devicesFor(
        node({
          id: 'c',
          type: 'conversation',
          prompt: 'Bye',
          doesNotRequireReply: true,
          outcomes: [],
        }),
        voice,
      ),
    ).toEqual(none);
  });

  it('needs nothing for forms', () => {
    for (const type of ['enter_email', 'two_factor_email', 'two_factor_sms', 'end']) {
      expect(devicesFor(node({ id: 'x', type, outcomes: {} }), voice)).toEqual(none);
    }
  });
});

describe('askBefore', () => {
  const camera = node({ id: 'l', type: 'liveness_detection', outcomes: {} });
  const talk = node({ id: 'c', type: 'conversation', prompt: 'Hi', outcomes: [] });

  it('asks at the first node that needs a device nobody asked for', () => {
    expect(askBefore(camera, none, voice)).toEqual({ camera: true, microphone: false });
    expect(askBefore(talk, none, voice)).toEqual({ camera: false, microphone: true });
  });

  it('does not ask again for what was asked', () => {
    expect(askBefore(camera, { camera: true, microphone: false }, voice)).toBeNull();
    expect(askBefore(talk, { camera: false, microphone: true }, voice)).toBeNull();
  });

  it('never asks in front of a permissions node', () => {
    expect(askBefore(node({ id: 'p', type: 'permissions', outcomes: {} }), none, voice)).toBeNull();
  });
});

describe('devicesOfPermissionsNode', () => {
  it('asks for both unless told otherwise', () => {
    expect(devicesOfPermissionsNode(node({ id: 'p', type: 'permissions', outcomes: {} }))).toEqual({
      camera: true,
      microphone: true,
    });
    expect(
      devicesOfPermissionsNode(
        node({ id: 'p', type: 'permissions', permissions: { camera: false }, outcomes: {} }),
      ),
    ).toEqual({ camera: false, microphone: true });
  });
});

describe('askedAlong', () => {
  const flow = [
    node({ id: 'p', type: 'permissions', permissions: { microphone: false }, outcomes: {} }),
    node({ id: 'm', type: 'enter_email', outcomes: {} }),
  ];
  const at = (path: Position['path']): Position => ({
    nodeId: 'x',
    nodeType: 'liveness_detection',
    status: 'active',
    path,
  });

  it('counts what a passed permissions node asked for, whatever the user answered', () => {
    const denied = at([{ nodeId: 'p', type: 'permissions', outcome: 'permissionsDenied' }]);
    expect(askedAlong(none, flow, denied)).toEqual({ camera: true, microphone: false });
  });

  it('keeps what was asked before and ignores the other nodes', () => {
    const path = at([{ nodeId: 'm', type: 'enter_email', outcome: 'emailEntered' }]);
    expect(askedAlong(none, flow, path)).toEqual(none);
    expect(askedAlong({ camera: false, microphone: true }, flow, path)).toEqual({
      camera: false,
      microphone: true,
    });
  });
});
