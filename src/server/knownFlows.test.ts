import { describe, expect, it } from 'vitest';
import { API_LIMITS } from '../core/api';
import { startFlow, type Flow } from '../core/flow';
import { flowIdentity } from './flowIdentity';
import { KNOWN_TEXT_MAX, flowRecord, knownFlow, knownFlowAt, rememberFlow } from './knownFlows';

/** A flow of its own for each test: the registry is shared by the whole process. */
const flowNamed = (name: string, extra: Record<string, unknown> = {}) =>
  [
    { id: 'start', type: 'start', outcome: name },
    { id: name, type: 'enter_email', outcomes: { emailEntered: 'end', canceled: 'end' }, ...extra },
    { id: 'end', type: 'end' },
  ] as Flow;

describe('the known flows', () => {
  it('recognise a copy of a remembered flow, and hand back its one frozen value', () => {
    const flow = flowNamed('copied');
    const known = rememberFlow(flow, startFlow(flow));
    expect(known.value).toEqual(flow);
    expect(Object.isFrozen(known.value[1])).toBe(true);
    expect(known.text).toBe(JSON.stringify(flow));
    expect(known.identity).toEqual(flowIdentity(flow));
    expect(known.start).toEqual(startFlow(flow));
    expect(knownFlow(structuredClone(flow))).toEqual({ known });
    expect(knownFlow(known.value)).toEqual({ known });
    expect(rememberFlow(structuredClone(flow), known.start)).toBe(known);
  });

  it('give the text of a flow they do not know', () => {
    const flow = flowNamed('unknown');
    expect(knownFlow(flow)).toEqual({ text: JSON.stringify(flow) });
    // The same flow with its keys in another order prints, and is looked up, as sent.
    const known = rememberFlow(flow, startFlow(flow));
    const reordered = flow.map((n) => Object.fromEntries(Object.entries(n).reverse()));
    expect(knownFlow(reordered)).toEqual({ text: JSON.stringify(reordered) });
    expect(flowIdentity(reordered)).toEqual(known.identity);
  });

  it('find a remembered flow’s text in a body', () => {
    const known = rememberFlow(flowNamed('inBody'), startFlow(flowNamed('inBody')));
    const body = `{"a":1,"flow":${known.text},"b":2}`;
    expect(knownFlowAt(body, body.indexOf('['))).toBe(known);
    expect(knownFlowAt(body, 0)).toBeUndefined();
    expect(knownFlowAt(`{"flow":${known.text.slice(0, -1)}`, 8)).toBeUndefined();
  });

  it('look up by text only flows short and shallow enough to sit at a body’s flow', () => {
    const long = flowNamed('long', { prompt: 'x'.repeat(KNOWN_TEXT_MAX) });
    const deep = flowNamed('deep', {
      x: JSON.parse('['.repeat(API_LIMITS.maxJsonDepth) + ']'.repeat(API_LIMITS.maxJsonDepth)),
    });
    for (const flow of [long, deep]) {
      const known = rememberFlow(flow, startFlow(flowNamed('any')));
      // Its own value is still known, so a create stores and answers it without hashing again.
      expect(knownFlow(known.value)).toEqual({ known });
      expect(knownFlow(structuredClone(flow))).toEqual({ text: JSON.stringify(flow) });
      expect(knownFlowAt(`{"flow":${known.text}}`, 8)).toBeUndefined();
    }
  });

  it('give the store a flow’s identity hash and text, known or not', () => {
    const flow = flowNamed('stored');
    expect(flowRecord(flow)).toEqual({ hash: flowIdentity(flow).hash, json: JSON.stringify(flow) });
    const known = rememberFlow(flow, startFlow(flow));
    expect(flowRecord(known.value)).toEqual({ hash: known.identity.hash, json: known.text });
  });
});
