import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepJson, depthOf } from '../test/fuzzBodies';
import { jsonTooDeep } from './jsonDepth';

describe('jsonTooDeep', () => {
  it('counts arrays and objects, the text’s own value as level 1', () => {
    expect(jsonTooDeep('1', 0)).toBeNull();
    expect(jsonTooDeep('[]', 0)).toEqual({ at: 0, key: null });
    expect(jsonTooDeep('{"a":[[1]]}', 3)).toBeNull();
    expect(jsonTooDeep('{"a":[[[1]]]}', 3)).toEqual({ at: 7, key: 'a' });
    // siblings close before the next opens
    expect(jsonTooDeep('[[1],[2],[3],{"a":1}]', 2)).toBeNull();
  });

  it('skips strings whole, escaped quotes and backslashes included', () => {
    expect(jsonTooDeep('["[[[[{{{{"]', 1)).toBeNull();
    expect(jsonTooDeep(JSON.stringify(['\\', '"[[[[', '\\"{{{{', '\\\\']), 1)).toBeNull();
    expect(jsonTooDeep(JSON.stringify({ 'x"[': 'y\\', z: ['"]]]'] }), 2)).toBeNull();
    expect(jsonTooDeep(JSON.stringify({ 'x"[': 'y\\', z: [['"]]]']] }), 2)).toEqual({
      at: 19,
      key: 'z',
    });
  });

  it('names the top-level key whose value goes too deep, and none outside an object body', () => {
    expect(jsonTooDeep(' {"a":"[[[", "b\\"c":[[[]]], "d":[[[[]]]]}', 3)?.key).toBe('b"c');
    expect(jsonTooDeep('{"a":[1],"b":{"c":[[]]}}', 3)?.key).toBe('b');
    expect(jsonTooDeep('["a",[[[]]]]', 3)).toEqual({ at: 7, key: null });
  });

  it('answers exactly as the depth of the parsed value, for any JSON, up to 10,000 levels', () => {
    const text = fc.oneof(
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      deepJson,
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 40 }), (t, max) => {
        const depth = depthOf(JSON.parse(t));
        expect(jsonTooDeep(t, max) !== null).toBe(depth > max);
      }),
      { numRuns: 1000 },
    );
  });
});
