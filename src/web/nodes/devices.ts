import type { FlowNode, Position } from '../api/types';
import { PAGE_TABLES } from '.';
import type { BrowserAbilities, Devices } from './kind';
import type { PageTables } from './tables';

export type { BrowserAbilities, Devices } from './kind';

/**
 * The devices a node needs, as its page kind says (`devices`): the camera kinds the camera,
 * `face_compare` the camera only when one of its sources is the session video, a conversation the
 * microphone where the browser can recognise speech (typing always works). None otherwise.
 *
 * @example
 * devicesFor({ id: 'l', type: 'liveness_detection', outcomes: {} }, { speechRecognition: true });
 * // { camera: true, microphone: false }
 */
export function devicesFor(
  node: FlowNode,
  abilities: BrowserAbilities,
  tables: PageTables = PAGE_TABLES,
): Devices {
  return tables.devices[node.type]?.(node, abilities) ?? { camera: false, microphone: false };
}

/**
 * The devices to ask for before showing a node, for flows without a permissions node in front of
 * it: what the node needs and nobody has asked for yet. Null when there is nothing to ask, and in
 * front of a node that asks for devices itself (a permissions node).
 *
 * @example
 * askBefore({ id: 'c', type: 'conversation', prompt: 'Hi', outcomes: [] }, { camera: false, microphone: false }, { speechRecognition: true });
 * // { camera: false, microphone: true }
 */
export function askBefore(
  node: FlowNode,
  asked: Devices,
  abilities: BrowserAbilities,
  tables: PageTables = PAGE_TABLES,
): Devices | null {
  if (Object.hasOwn(tables.asks, node.type)) return null;
  const needs = devicesFor(node, abilities, tables);
  const ask = {
    camera: needs.camera && !asked.camera,
    microphone: needs.microphone && !asked.microphone,
  };
  return ask.camera || ask.microphone ? ask : null;
}

/**
 * Devices already asked for along the path: a node that asks for devices itself (a permissions
 * node) asked for the ones it names, whatever the user answered.
 *
 * @example
 * askedAlong({ camera: false, microphone: false }, flow, position);
 * // { camera: true, microphone: true } once a permissions node was passed
 */
export function askedAlong(
  asked: Devices,
  flow: readonly FlowNode[],
  position: Position,
  tables: PageTables = PAGE_TABLES,
): Devices {
  const result = { ...asked };
  for (const step of position.path) {
    const asks = tables.asks[step.type];
    const node = asks && flow.find((n) => n.id === step.nodeId);
    if (!asks || !node) continue;
    const devices = asks(node);
    result.camera ||= devices.camera;
    result.microphone ||= devices.microphone;
  }
  return result;
}
