/**
 * The presentation-attack decision (docs/liveness.md, "Presentation attacks"): each check reads
 * the frames with one face, gives a score, compares it with its threshold and says `attack`,
 * `bonaFide` or `unknown` (not enough to tell). Any `attack` makes the capture an attack. Pure.
 */
import type { AnalyzedFace } from '../../face-analysis/analyzer';
import { median } from '../../face-analysis/similarity';
import type { FrameCues } from './cues';
import { planarMotion, PLANARITY_DEFAULTS, type Landmarks } from './planarity';

export type PadCheckName =
  | 'border'
  | 'textBeside'
  | 'smallFaceInFrame'
  | 'screenOrPrintPattern'
  | 'planarMotion'
  | 'antispoofModel'
  | 'livenessModel';

export interface PadCheck {
  name: PadCheckName;
  /** The check's figure (see `PAD_CHECKS` in docs/liveness.md); null when it could not be read. */
  score: number | null;
  /** Where the verdict turns. */
  threshold: number;
  verdict: 'attack' | 'bonaFide' | 'unknown';
  /** Frames the check read. */
  frames: number;
}

export interface PadAssessment {
  attack: boolean;
  /** The checks that said `attack`. */
  attackBy: PadCheckName[];
  checks: PadCheck[];
}

/** One frame with exactly one usable face, and its cues when the frame job computed them. */
export interface PadFrame {
  face: AnalyzedFace;
  cues?: FrameCues | null;
}

export interface PadOptions {
  /** Share of the frames with cues that must show a border around the face. */
  borderShare: number;
  /** Face scale (width over the shorter side) under which a face is small for a user at the camera. */
  smallFace: number;
  /** Text lines beside a small face that make it a document. */
  textLines: number;
  /** Median spectral peak ratio of the face from which it shows a screen's or a print's pattern. */
  patternRatio: number;
  /** Median antispoof `real` and liveness `live` under which the models call it a spoof. */
  minReal: number;
  minLive: number;
}

export const PAD_DEFAULTS: PadOptions = {
  borderShare: 0.3,
  smallFace: 0.25,
  textLines: 2,
  patternRatio: 80,
  minReal: 0.2,
  minLive: 0.2,
};

const share = (n: number, of: number) => (of > 0 ? n / of : 0);
const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Runs every check over the frames and says whether they show a presentation attack.
 *
 * @example
 * const pad = assessPresentation(frames.map((f) => ({ face: f.face, cues: f.cues })));
 * if (pad.attack) console.log(pad.attackBy); // ['border', 'smallFaceInFrame']
 */
export function assessPresentation(
  frames: readonly PadFrame[],
  options: Partial<PadOptions> = {},
): PadAssessment {
  const o = { ...PAD_DEFAULTS, ...options };
  const cued = frames.flatMap((f) => (f.cues ? [f.cues] : []));
  const checks: PadCheck[] = [];
  const add = (
    name: PadCheckName,
    score: number | null,
    threshold: number,
    attack: boolean | null,
    n: number,
  ) =>
    checks.push({
      name,
      score: score === null ? null : round(score),
      threshold,
      verdict: attack === null ? 'unknown' : attack ? 'attack' : 'bonaFide',
      frames: n,
    });

  // A card's, a sheet's or a screen's edges around the face.
  const enclosed = cued.filter((c) => c.border.enclosed).length;
  const borderScore = share(enclosed, cued.length);
  add(
    'border',
    cued.length ? borderScore : null,
    o.borderShare,
    cued.length ? borderScore >= o.borderShare : null,
    cued.length,
  );

  // Printed lines beside a face too small to be someone at the camera.
  const small = cued.filter((c) => c.scale < o.smallFace);
  const texty = small.filter((c) => c.text.lines >= o.textLines).length;
  const textScore = share(texty, cued.length);
  add(
    'textBeside',
    cued.length ? textScore : null,
    0.5,
    cued.length ? textScore >= 0.5 : null,
    cued.length,
  );

  // A small face with straight edges near it (two sides at least): a document or a photo held up.
  const framed = small.filter((c) => c.border.found >= 2).length;
  const smallScore = share(framed, cued.length);
  add(
    'smallFaceInFrame',
    cued.length ? smallScore : null,
    0.5,
    cued.length ? smallScore >= 0.5 : null,
    cued.length,
  );

  // A screen's pixel grid or a print's halftone on the face.
  const ratios = cued.map((c) => c.spectrum.peakRatio);
  const pattern = ratios.length ? median(ratios) : null;
  add(
    'screenOrPrintPattern',
    pattern,
    o.patternRatio,
    pattern === null ? null : pattern >= o.patternRatio,
    ratios.length,
  );

  // One plane's motion.
  const landmarks = frames.flatMap((f) =>
    f.face.landmarks ? [f.face.landmarks as Landmarks] : [],
  );
  const planar = planarMotion(landmarks);
  add(
    'planarMotion',
    planar.ratio,
    PLANARITY_DEFAULTS.planarRatio,
    planar.verdict === 'unknown' ? null : planar.verdict === 'planar',
    landmarks.length,
  );

  // The models' own opinion (weak on this set: docs/liveness-fixtures.md).
  const reals = frames.map((f) => f.face.real);
  const lives = frames.map((f) => f.face.live);
  const real = reals.length ? median(reals) : null;
  const live = lives.length ? median(lives) : null;
  add('antispoofModel', real, o.minReal, real === null ? null : real < o.minReal, reals.length);
  add('livenessModel', live, o.minLive, live === null ? null : live < o.minLive, lives.length);

  const attackBy = checks.filter((c) => c.verdict === 'attack').map((c) => c.name);
  return { attack: attackBy.length > 0, attackBy, checks };
}
