import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config, FaceResult, Human } from '@vladmandic/human';
import type { Point } from '../../core/liveness';
import type { AnalyzeOptions, AnalyzedFace, FaceAnalyzer, FrameAnalysis } from './analyzer';
import { decodeImage, rgbBrightness } from './image';
import { registerFileLoader } from './tfjs-file-loader';

const require = createRequire(import.meta.url);

/** Where `@vladmandic/human` and the tfjs wasm binaries are on disk. */
export function humanPaths(): { humanNodeWasm: string; models: string; wasmDir: string } {
  // The package's exports map cannot reach the node-wasm build by name, so go by path.
  const humanDist = dirname(require.resolve('@vladmandic/human'));
  const wasmDist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  return {
    humanNodeWasm: join(humanDist, 'human.node-wasm.js'),
    models: join(humanDist, '..', 'models'),
    wasmDir: wasmDist.endsWith('dist') ? wasmDist : join(wasmDist, '..'),
  };
}

export interface HumanAnalyzerOptions {
  /** How many faces the detector may report in one frame; more than one is needed to see two. */
  maxFaces?: number;
  /** Detector confidence below which a face is not reported. */
  minConfidence?: number;
  /**
   * The iris model for every call that does not say (`AnalyzeOptions.eyes`): the measuring
   * scripts compare the mesh with and without it. Off by default. Without it the mesh's eyelids
   * barely follow a closed eye (eye openness 0.35 open, 0.29 closed, within the spread of a head
   * turning a little); with it 0.38 and 0.22 (docs/liveness-fixtures.md, "A still cut-out").
   */
  iris?: boolean;
}

/**
 * Mesh points standing for MediaPipe's six keypoints: eye centres (corner midpoints), nose tip,
 * mouth centre (lip midpoints) and, for the ear tragions, the face contour at ear height (234/454),
 * which lies behind the eyes as the tragions do.
 */
const EYE_A = [33, 133] as const;
const EYE_B = [362, 263] as const;
const NOSE_TIP = 1;
const MOUTH = [13, 14] as const;
const EAR_A = 234;
const EAR_B = 454;

function meshKeypoints(mesh: readonly (readonly number[])[]): Point[] {
  const at = (i: number): Point => {
    const p = mesh[i];
    if (!p || p.length < 2) throw new Error(`face mesh point ${i} is missing`);
    return { x: p[0]!, y: p[1]! };
  };
  const mid = (a: number, b: number): Point => {
    const p = at(a);
    const q = at(b);
    return { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
  };
  return [mid(...EYE_A), mid(...EYE_B), at(NOSE_TIP), mid(...MOUTH), at(EAR_A), at(EAR_B)];
}

/**
 * The face mesh points kept with each face (`AnalyzedFace.landmarks`), spread over the face: the
 * outline (36, from the forehead round by the ear to the chin), eye corners and lids (8), brows
 * (4), nose bridge to tip and wings (10), mouth (6).
 */
export const LANDMARK_INDEXES = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148,
  176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109, 33, 133, 160, 144, 362,
  263, 387, 373, 70, 105, 300, 334, 168, 6, 197, 195, 5, 4, 1, 2, 98, 327, 61, 291, 0, 17, 13, 14,
] as const;

const round1 = (v: number) => Math.round(v * 10) / 10;

function toFace(f: FaceResult): AnalyzedFace {
  const [x, y, width, height] = f.box;
  const mesh = f.mesh as unknown as number[][];
  return {
    box: { x, y, width, height },
    keypoints: mesh.length >= 468 ? meshKeypoints(mesh) : [],
    ...(mesh.length >= 468
      ? {
          landmarks: LANDMARK_INDEXES.map((i): [number, number] => [
            round1(mesh[i]![0]!),
            round1(mesh[i]![1]!),
          ]),
        }
      : {}),
    score: f.score,
    embedding: f.embedding ? Array.from(f.embedding) : [],
    rotation: f.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 },
    real: f.real ?? 0,
    live: f.live ?? 0,
    age: f.age ?? 0,
    gender: f.gender === 'male' || f.gender === 'female' ? f.gender : 'unknown',
    genderScore: f.genderScore ?? 0,
  };
}

/**
 * The `FaceAnalyzer` on `@vladmandic/human` in Node, tfjs wasm backend, models read from the
 * package on disk (no network, no tfjs-node). Calls are queued: the backend is single-threaded.
 *
 * @example
 * const analyzer = createHumanAnalyzer();
 * const frame = await analyzer.analyze(readFileSync('face.jpg'));
 * frame.faces[0]?.embedding.length; // 1024
 */
export function createHumanAnalyzer(opts: HumanAnalyzerOptions = {}): FaceAnalyzer {
  let human: Human | undefined;
  let loading: Promise<Human> | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const config = (): Partial<Config> => {
    const p = humanPaths();
    const skip = { skipFrames: 0, skipTime: 0 };
    return {
      backend: 'wasm',
      wasmPath: p.wasmDir + '/',
      modelBasePath: pathToFileURL(p.models).href + '/',
      debug: false,
      // Results must never be reused between frames: each frame is evidence on its own.
      cacheSensitivity: 0,
      filter: { enabled: false } as Config['filter'],
      body: { enabled: false } as Config['body'],
      hand: { enabled: false } as Config['hand'],
      object: { enabled: false } as Config['object'],
      gesture: { enabled: false },
      segmentation: { enabled: false } as Config['segmentation'],
      face: {
        enabled: true,
        detector: {
          rotation: false,
          return: false,
          maxDetected: opts.maxFaces ?? 4,
          minConfidence: opts.minConfidence ?? 0.5,
          ...skip,
        },
        mesh: { enabled: true },
        iris: { enabled: opts.iris ?? false },
        description: { enabled: true, ...skip },
        emotion: { enabled: false },
        antispoof: { enabled: true, ...skip },
        liveness: { enabled: true, ...skip },
      } as Config['face'],
    };
  };

  const load = (): Promise<Human> => {
    if (human) return Promise.resolve(human);
    loading ??= (async () => {
      registerFileLoader();
      const mod = require(humanPaths().humanNodeWasm) as {
        Human: new (c: Partial<Config>) => Human;
      };
      const h = new mod.Human(config());
      await h.load();
      await h.tf.ready();
      human = h;
      return h;
    })();
    return loading;
  };

  const run = async (image: Uint8Array, call: AnalyzeOptions): Promise<FrameAnalysis> => {
    const t0 = performance.now();
    const img = decodeImage(image);
    const h = await load();
    const tensor = h.tf.tensor4d(img.rgb, [1, img.height, img.width, 3], 'int32');
    try {
      // human merges a call's config into its own for good: every call says which models run.
      const all = !call.boxesOnly;
      const models = {
        face: {
          iris: { enabled: all && (call.eyes ?? opts.iris ?? false) },
          description: { enabled: all && !call.withoutDescription },
          antispoof: { enabled: all },
          liveness: { enabled: all },
        },
      } as Partial<Config>;
      const result = await h.detect(tensor as never, models);
      if (typeof result.error === 'string' && result.error) throw new Error(result.error);
      return {
        width: img.width,
        height: img.height,
        brightness: rgbBrightness(img.rgb, 7),
        faces: result.face.map(toFace),
        ms: performance.now() - t0,
      };
    } finally {
      tensor.dispose();
    }
  };

  return {
    async load() {
      await load();
    },
    analyze(image, call = {}) {
      const next = queue.then(() => run(image, call));
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      await queue;
      human?.tf.disposeVariables();
      human = undefined;
      loading = undefined;
    },
  };
}
