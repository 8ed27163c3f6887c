import { mkdtempSync, readFileSync, rmSync, statSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFaceModel } from './build-face-model';
import {
  addImageMetadata,
  listModelMetadata,
  readImageMetadata,
  readModelBuffer,
  readModelLayout,
} from './lib/tflite-metadata';

const root = resolve(__dirname, '..');
const source = join(
  root,
  'node_modules/@mediapipe/face_detection/face_detection_short_range.tflite',
);
const out = mkdtempSync(join(tmpdir(), 'face-model-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('buildFaceModel', () => {
  const modelOut = join(out, 'models/face_detector.tflite');
  const wasmOut = join(out, 'mediapipe');

  it('writes a model whose TFLITE_METADATA reads back as RGB, mean 127.5, std 127.5', () => {
    const r = buildFaceModel({ modelOut, wasmOut });
    expect(r.modelWritten).toBe(true);
    const model = readFileSync(modelOut);
    const meta = readImageMetadata(model);
    expect(meta).toEqual({
      name: 'face_detector',
      minParserVersion: '1.0.0',
      inputName: 'image',
      colorSpace: 1,
      mean: [127.5],
      std: [127.5],
      outputCount: readModelLayout(model).numOutputs,
    });
    expect(meta?.outputCount).toBe(2);
    expect(readdirSync(wasmOut).sort()).toEqual(
      readdirSync(join(root, 'node_modules/@mediapipe/tasks-vision/wasm')).sort(),
    );
  });

  it('keeps every original buffer byte for byte (the weights are untouched)', () => {
    const original = readFileSync(source);
    const model = readFileSync(modelOut);
    const before = readModelLayout(original);
    const after = readModelLayout(model);
    expect(after.buffers.length).toBe(before.buffers.length + 1);
    expect(after.version).toBe(before.version);
    for (let i = 0; i < before.buffers.length; i++) {
      expect(Buffer.from(readModelBuffer(model, i)).equals(readModelBuffer(original, i))).toBe(
        true,
      );
    }
    expect(model.subarray(4, 8).toString()).toBe('TFL3');
    expect(model.length % 4).toBe(0);
  });

  it('does nothing on a second run', () => {
    const before = statSync(modelOut).mtimeMs;
    const r = buildFaceModel({ modelOut, wasmOut });
    expect(r.modelWritten).toBe(false);
    expect(r.wasmCopied).toEqual([]);
    expect(statSync(modelOut).mtimeMs).toBe(before);
  });

  it('rebuilds when the output was removed', () => {
    rmSync(modelOut);
    expect(buildFaceModel({ modelOut, wasmOut }).modelWritten).toBe(true);
    expect(existsSync(modelOut)).toBe(true);
  });
});

describe('tflite metadata', () => {
  it('the shipped model has no metadata, which is why FaceDetector refuses it', () => {
    const original = readFileSync(source);
    expect(readImageMetadata(original)).toBeUndefined();
    expect(listModelMetadata(original).map((m) => m.name)).not.toContain('TFLITE_METADATA');
  });

  it('refuses to add a second block', () => {
    const once = addImageMetadata(readFileSync(source), { mean: 0, std: 255, name: 'x' });
    expect(readImageMetadata(once)?.std).toEqual([255]);
    expect(() => addImageMetadata(once, { mean: 0, std: 1, name: 'x' })).toThrow(/already/);
  });

  it('refuses a file that is not a TFLite model', () => {
    expect(() => addImageMetadata(new Uint8Array(64), { mean: 0, std: 1, name: 'x' })).toThrow(
      /TFL3/,
    );
  });
});
