import type { FlowNode } from '../api/types';

/** Camera and microphone, as a node needs them or as they have been asked for. */
export interface Devices {
  camera: boolean;
  microphone: boolean;
}

/** What the browser can do, as far as the choice of devices goes. */
export interface BrowserAbilities {
  /** `SpeechRecognition` (or its webkit name) exists: conversation answers can be spoken. */
  speechRecognition: boolean;
}

const CAMERA_NODES = new Set(['liveness_detection', 'document_scan', 'face_scan', 'recognition']);

/**
 * The devices a node needs. Camera nodes need the camera; `face_compare` only when one of its
 * sources is the session video; a conversation uses the microphone where the browser can
 * recognise speech (typing always works). A `permissions` node asks for itself.
 *
 * @example
 * devicesFor({ id: 'l', type: 'liveness_detection', outcomes: {} }, { speechRecognition: true });
 * // { camera: true, microphone: false }
 */
export function devicesFor(node: FlowNode, abilities: BrowserAbilities): Devices {
  if (CAMERA_NODES.has(node.type)) return { camera: true, microphone: false };
  if (node.type === 'face_compare') {
    const n = node as { sourceA?: { source?: string }; sourceB?: { source?: string } };
    const video = n.sourceA?.source === 'sessionVideo' || n.sourceB?.source === 'sessionVideo';
    return { camera: video, microphone: false };
  }
  if (node.type === 'conversation') {
    const quiet = (node as { doesNotRequireReply?: boolean }).doesNotRequireReply === true;
    return { camera: false, microphone: abilities.speechRecognition && !quiet };
  }
  return { camera: false, microphone: false };
}

/**
 * The devices to ask for before showing a node, for flows without a permissions node in front of
 * it: what the node needs and nobody has asked for yet. Null when there is nothing to ask.
 *
 * @example
 * askBefore({ id: 'c', type: 'conversation', prompt: 'Hi', outcomes: [] }, { camera: false, microphone: false }, { speechRecognition: true });
 * // { camera: false, microphone: true }
 */
export function askBefore(
  node: FlowNode,
  asked: Devices,
  abilities: BrowserAbilities,
): Devices | null {
  if (node.type === 'permissions') return null;
  const needs = devicesFor(node, abilities);
  const ask = {
    camera: needs.camera && !asked.camera,
    microphone: needs.microphone && !asked.microphone,
  };
  return ask.camera || ask.microphone ? ask : null;
}

/**
 * The devices a permissions node asks for: both unless its `permissions` field says otherwise.
 *
 * @example
 * devicesOfPermissionsNode({ id: 'p', type: 'permissions', permissions: { microphone: false }, outcomes: {} });
 * // { camera: true, microphone: false }
 */
export function devicesOfPermissionsNode(node: FlowNode): Devices {
  const p = (node as { permissions?: { camera?: boolean; microphone?: boolean } }).permissions;
  return { camera: p?.camera !== false, microphone: p?.microphone !== false };
}
