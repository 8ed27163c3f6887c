/**
 * `npm run models`: prepares what the browser's face detector needs, served from our own origin.
 *
 * - `public/models/face_detector.tflite`: `@mediapipe/face_detection`'s short-range model with the
 *   TFLite metadata block (RGB, mean 127.5, std 127.5) that MediaPipe Tasks' FaceDetector requires.
 * - `public/mediapipe/`: the wasm files of `@mediapipe/tasks-vision`.
 *
 * Both are generated (git-ignored). Idempotent: a file is rewritten only when its source changed
 * (size and modification time for copies, a stamp of the source's SHA-256 for the model), so a run
 * that finds everything up to date takes a few milliseconds.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { writeFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addImageMetadata } from './lib/tflite-metadata';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface BuildFaceModelOptions {
  /** Project root; the default is this repository. */
  root?: string;
  /** Where the model goes; default `public/models/face_detector.tflite` under the root. */
  modelOut?: string;
  /** Where the wasm files go; default `public/mediapipe` under the root. */
  wasmOut?: string;
  log?: (line: string) => void;
}

export interface BuildFaceModelResult {
  modelPath: string;
  modelWritten: boolean;
  wasmDir: string;
  wasmCopied: string[];
}

/** Input normalisation the short-range BlazeFace model was trained with: [-1, 1]. */
export const FACE_MODEL_NORMALIZATION = { mean: 127.5, std: 127.5, name: 'face_detector' };

function writeAtomic(path: string, data: Uint8Array | string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/**
 * Builds the face detector model and copies the MediaPipe wasm files when they are out of date.
 *
 * @example
 * const r = buildFaceModel();
 * r.modelWritten; // false on a second run
 */
export function buildFaceModel(opts: BuildFaceModelOptions = {}): BuildFaceModelResult {
  const base = opts.root ?? root;
  const log = opts.log ?? (() => {});
  const source = join(
    base,
    'node_modules/@mediapipe/face_detection/face_detection_short_range.tflite',
  );
  const wasmSource = join(base, 'node_modules/@mediapipe/tasks-vision/wasm');
  const modelPath = opts.modelOut ?? join(base, 'public/models/face_detector.tflite');
  const wasmDir = opts.wasmOut ?? join(base, 'public/mediapipe');
  if (!existsSync(source)) {
    throw new Error(`${source} is missing: run npm install (@mediapipe/face_detection)`);
  }
  if (!existsSync(wasmSource)) {
    throw new Error(`${wasmSource} is missing: run npm install (@mediapipe/tasks-vision)`);
  }

  const original = readFileSync(source);
  const stamp = JSON.stringify({
    source: createHash('sha256').update(original).digest('hex'),
    ...FACE_MODEL_NORMALIZATION,
  });
  const stampPath = `${modelPath}.stamp`;
  const upToDate =
    existsSync(modelPath) && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp;
  mkdirSync(dirname(modelPath), { recursive: true });
  if (!upToDate) {
    writeAtomic(modelPath, addImageMetadata(original, FACE_MODEL_NORMALIZATION));
    writeAtomic(stampPath, stamp);
    log(`face model: wrote ${modelPath}`);
  }

  mkdirSync(wasmDir, { recursive: true });
  const copied: string[] = [];
  for (const name of readdirSync(wasmSource)) {
    const from = join(wasmSource, name);
    const to = join(wasmDir, name);
    const s = statSync(from);
    if (!s.isFile()) continue;
    if (existsSync(to)) {
      const d = statSync(to);
      if (d.size === s.size && d.mtimeMs >= s.mtimeMs) continue;
    }
    copyFileSync(from, to);
    copied.push(name);
  }
  if (copied.length > 0) log(`face model: copied ${copied.length} wasm file(s) to ${wasmDir}`);
  return { modelPath, modelWritten: !upToDate, wasmDir, wasmCopied: copied };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const r = buildFaceModel({ log: (l) => console.log(l) });
  const ms = (performance.now() - t0).toFixed(0);
  if (!r.modelWritten && r.wasmCopied.length === 0)
    console.log(`face model: up to date (${ms} ms)`);
  else console.log(`face model: done in ${ms} ms`);
}
