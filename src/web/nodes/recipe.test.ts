import { fromCallback } from 'xstate';
import { describe, expect, it } from 'vitest';
import { KINDS, NODE_TYPES } from '../../core/flow';
import type { NodeActorEvent, NodeActorInput, NodeActors } from '../../core/flow';
import type { FlowNode, NodeType, Position } from '../api/types';
import { flowRunner } from '../machine/flowRunner';
import { DEVICE_ASKER, PAGE_KINDS, PAGE_TABLES } from '.';
import { askBefore, askedAlong, devicesFor } from './devices';
import type { AnyPageKind } from './kind';
import { screenRegistry, screensFor } from './registry';
import { pageTables } from './tables';

// The page part of the recipe of docs/flows.md ("Adding a node kind"): a toy kind's page module,
// as nodes/<type>/index.ts would hold it, added to the page kinds.

function ChimeScreen() {
  return null;
}
// Its actor in the flow machine: it notes that it ran, then ends with the server's outcome.
const chimed: string[] = [];
const chimeActor = fromCallback<NodeActorEvent, NodeActorInput>(({ input, receive, sendBack }) => {
  chimed.push(input.node.id);
  receive(({ position }) => {
    const step = position.path.find((s) => s.nodeId === input.node.id);
    if (step) sendBack({ type: 'outcome', outcome: step.outcome });
  });
});
const chimePage: AnyPageKind = {
  type: 'toy_chime',
  screen: () => Promise.resolve({ default: ChimeScreen }),
  devices: () => ({ camera: false, microphone: true }),
  actor: chimeActor,
};
const chime = { id: 'c', type: 'toy_chime', outcomes: {} } as unknown as FlowNode;
const TOY = 'toy_chime' as NodeType;
const voice = { speechRecognition: true };
const none = { camera: false, microphone: false };

describe('adding a node kind, on the page', () => {
  const tables = pageTables([...Object.values(PAGE_KINDS), chimePage]);

  it('draws its screen once its chunk is fetched', async () => {
    const registry = screenRegistry(tables);
    await registry.loadScreen(TOY);
    expect(registry.screenFor(TOY)).toBe(ChimeScreen);
  });

  it('asks for the devices it needs in front of its node, with the permissions screen', () => {
    expect(devicesFor(chime, voice, tables)).toEqual({ camera: false, microphone: true });
    expect(askBefore(chime, none, voice, tables)).toEqual({ camera: false, microphone: true });
    expect(screensFor(TOY, tables)).toEqual([TOY, 'permissions']);
  });

  it('needs nothing, and brings no other screen, when it names no devices', () => {
    const quiet = pageTables([...Object.values(PAGE_KINDS), { ...chimePage, devices: undefined }]);
    expect(devicesFor(chime, voice, quiet)).toEqual(none);
    expect(askBefore(chime, none, voice, quiet)).toBeNull();
    expect(screensFor(TOY, quiet)).toEqual([TOY]);
  });

  it('may be the kind that asks for devices, but only one kind may', () => {
    const asking = { ...chimePage, asks: () => ({ camera: true, microphone: false }) };
    const alone = pageTables([asking]);
    expect(alone.asker).toBe('toy_chime');
    expect(askBefore(chime, none, voice, alone)).toBeNull();
    const position: Position = {
      nodeId: null,
      nodeType: null,
      status: 'complete',
      path: [{ nodeId: 'c', type: TOY, outcome: 'heard' }],
    };
    expect(askedAlong(none, [chime], position, alone)).toEqual({ camera: true, microphone: false });
    expect(() => pageTables([...Object.values(PAGE_KINDS), asking])).toThrow(
      "page kinds 'permissions' and 'toy_chime' both ask for devices",
    );
  });

  it('gives the flow machine its actor, which the page runs at its node', () => {
    expect(tables.actors.toy_chime).toBe(chimeActor);
    const flow = [
      { id: 'start', type: 'start', outcome: 'c' },
      { ...chime, outcomes: { heard: 'end' } },
      { id: 'end', type: 'end' },
    ] as unknown as FlowNode[];
    const runner = flowRunner(flow, tables.actors as unknown as NodeActors);
    const on: Position = { nodeId: 'c', nodeType: TOY, status: 'active', path: [] };
    expect(runner.follow(on)).toMatchObject({ nodeId: 'c', restarted: false });
    const heard: Position = {
      nodeId: null,
      nodeType: null,
      status: 'complete',
      path: [{ nodeId: 'c', type: TOY, outcome: 'heard' }],
    };
    expect(runner.follow(heard)).toMatchObject({ status: 'complete', restarted: false });
    expect(chimed).toEqual(['c']);
  });

  it('refuses a kind listed twice', () => {
    expect(() => pageTables([...Object.values(PAGE_KINDS), chimePage, chimePage])).toThrow(
      "page kind 'toy_chime' is listed twice",
    );
  });
});

describe("the page's tables of node types", () => {
  it('are derived from PAGE_KINDS, which covers every kind of the flow core', () => {
    expect(Object.keys(PAGE_KINDS)).toEqual(Object.keys(KINDS));
    expect(Object.keys(PAGE_TABLES.loaders)).toEqual(NODE_TYPES);
    expect(PAGE_TABLES).toEqual(pageTables(Object.values(PAGE_KINDS)));
    expect(DEVICE_ASKER).toBe('permissions');
  });

  it('ask in front of the kinds that need a device, and only those', () => {
    const mayAsk = NODE_TYPES.filter((type) => screensFor(type).length > 1);
    expect(mayAsk).toEqual([
      'conversation',
      'recognition',
      'liveness_detection',
      'document_scan',
      'face_scan',
      'face_compare',
    ]);
  });
});
