import { describe, expect, it } from 'vitest';
import { FACE_MODEL_PATH } from './detector';
import { prefetchFaceDetector } from './prefetchDetector';

describe('prefetchFaceDetector', () => {
  it('fetches the wasm loader and binary MediaPipe will pick, and the model, once per page', async () => {
    const fetched: string[] = [];
    const fetchFile = async (url: string) => {
      fetched.push(url);
    };
    await prefetchFaceDetector(fetchFile);
    await prefetchFaceDetector(fetchFile);
    // Node has wasm SIMD, as every browser the page supports but old Safari.
    expect(fetched.sort()).toEqual(
      [
        '/mediapipe/vision_wasm_internal.js',
        '/mediapipe/vision_wasm_internal.wasm',
        FACE_MODEL_PATH,
      ].sort(),
    );
  });
});
