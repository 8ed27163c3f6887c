import {
  DEFAULT_THRESHOLDS,
  headPose,
  measureChallenge,
  type Challenge,
  type ChallengeMeasure,
  type ChallengeThresholds,
} from '../../core/liveness';
import type { AnalyzedFace, FrameAnalysis, FrameFailure } from '../face-analysis/analyzer';
import { cosineSimilarity, median } from '../face-analysis/similarity';
import { assessPresentation, type PadAssessment, type PadOptions } from './pad/assess';
import type { FrameCues } from './pad/cues';
import { blinkEvidence, eyeOpenness, type BlinkEvidence } from './pad/eyes';

/** A frame's analysis as the liveness frame job stores it: the models' reading and the cues. */
export type LivenessFrame = FrameAnalysis & { cues?: FrameCues | null };

/** What the page sent for one liveness attempt, with what the server itself knows about it. */
export interface LivenessEvidence {
  /** The challenges the server picked for this attempt, in order (from the store, never the page). */
  challenges: readonly Challenge[];
  /** Server clock, ms: when the challenges were handed to the page. */
  issuedAt: number;
  /** Server clock, ms: when the evidence arrived. */
  receivedAt: number;
  /** The node's `timeoutSeconds`. */
  timeoutSeconds: number;
  /** The page found no usable camera. Only ever leads to `inconclusive`. */
  cameraUnavailable?: boolean;
  /** The frames in the order the page captured them, with the page's labels. */
  frames: readonly EvidenceFrame[];
}

export interface EvidenceFrame {
  /** Page clock, ms since the attempt began; only differences are used. */
  t: number;
  role: 'baseline' | 'challenge' | 'between';
  /** For `challenge` frames: which of `challenges` the page was showing. */
  challengeIndex?: number;
}

export type LivenessOutcome = 'livenessDetected' | 'deepfakeDetected' | 'noFace' | 'inconclusive';
export type InconclusiveReason =
  | 'timeout'
  | 'multipleFaces'
  | 'poorQuality'
  | 'cameraUnavailable'
  | 'challengeFailed'
  | 'personChanged'
  | 'noBlink';

export interface LivenessOptions {
  /** Faces under this detector score are ignored. */
  minFaceScore: number;
  /** Below this share of frames with a face, the outcome is `noFace`. */
  minFaceFraction: number;
  /** Median brightness (0–255) below which the frames are too dark to judge. */
  minBrightness: number;
  /** Smallest face: box width over the frame's shorter side. */
  minFaceScale: number;
  /** Cosine similarity to the best frame every frame must reach to be the same person. */
  minSimilarity: number;
  /** Median antispoof `real` score under which the attempt is a spoof. */
  minReal: number;
  /** Median `live` score under which the attempt is a spoof. */
  minLive: number;
  /** The presentation-attack checks' thresholds (`minReal` and `minLive` above are theirs too). */
  pad: Partial<Omit<PadOptions, 'minReal' | 'minLive'>>;
  /** Upload time allowed beyond the node's timeout, ms. */
  graceMs: number;
  /**
   * When a turn was asked and not done, and the face meanwhile moved in the picture without ever
   * turning, call it a flat picture (`deepfakeDetected`) rather than `challengeFailed`; the same
   * without challenges when the page never fitted the face (no `baseline`, several `between`
   * frames: a face_scan that could not align) and they show that motion.
   */
  flatMotionAsSpoof: boolean;
  /** Face travel (in face widths) or scale change that counts as "moved in the picture". */
  flatTravel: number;
  /**
   * Only without challenges: with them, a head that leans in while the page takes a turn's frame
   * too early shows exactly this (2–4 % of throttled-style bona fide attempts), and refusing it as
   * a picture would end the node without a retry (docs/liveness-fixtures.md).
   */
  flatScale: number;
  /**
   * Share of a turn (`challenge.turnDegrees`) the yaw range stays under for the pose to count as
   * still: a picture turned in front of the camera moves the nose keypoint a little (perspective,
   * up to 13° measured on the cut-out), never as far as a turn.
   */
  flatYawShare: number;
  /** Largest yaw (degrees, either way) of a baseline frame taken as facing the camera. */
  frontalDegrees: number;
  challenge: ChallengeThresholds;
}

export const DEFAULT_LIVENESS_OPTIONS: LivenessOptions = {
  minFaceScore: 0.6,
  minFaceFraction: 0.5,
  minBrightness: 40,
  minFaceScale: 0.12,
  minSimilarity: 0.6,
  minReal: 0.2,
  minLive: 0.2,
  pad: {},
  graceMs: 15_000,
  flatMotionAsSpoof: true,
  frontalDegrees: 10,
  flatTravel: 0.5,
  flatScale: 1.2,
  flatYawShare: 0.75,
  challenge: DEFAULT_THRESHOLDS,
};

export interface ChallengeReport extends Omit<ChallengeMeasure, 'met'> {
  challenge: Challenge;
  met: boolean;
  /** The frame that showed it done (or came closest). */
  frameIndex: number | null;
}

/**
 * Without challenges: the eyes' opening over the frames from the page's baseline on, and whether
 * it dipped once (`pad/eyes.ts`).
 */
export interface BlinkReport extends BlinkEvidence {
  /** The least open frame: the blink, or what came closest to one. */
  frameIndex: number | null;
  /** Each frame's opening in time order (null: no eye reading), rounded to 0.001. */
  openness: (number | null)[];
}

/** What the server measured: the `report` of the node report. */
export interface LivenessReport {
  frames: number;
  facesPerFrame: number[];
  unreadableFrames: number;
  durationMs: number;
  challenges: ChallengeReport[];
  similarity: { min: number; median: number } | null;
  scores: { realMedian: number; liveMedian: number; realMin: number; liveMin: number } | null;
  pose: { yawMin: number; yawMax: number; pitchMin: number; pitchMax: number } | null;
  motion: { travel: number; scaleRange: number; flat: boolean } | null;
  brightnessMedian: number;
  /** The frame best suited as the user photo: one face, most frontal, highest score. */
  bestFrameIndex: number | null;
  /** The models' estimates on the best frame: estimates, not facts. */
  estimates: { age: number; gender: string; genderScore: number } | null;
  /** The presentation-attack checks, each with its score, threshold and verdict. */
  presentation: PadAssessment | null;
  /** Without challenges and with a baseline: the blink the decision needs. Else null. */
  blink: BlinkReport | null;
}

/**
 * What the attempt was: `pass`, `attack` (a presentation attack or a spoof: never to be retried
 * into a pass) or `failure` (anything else; whether it deserves another try depends on its reason).
 */
export type AttemptClassification = 'pass' | 'attack' | 'failure';

export interface LivenessDecision {
  outcome: LivenessOutcome;
  inconclusiveReason?: InconclusiveReason;
  classification: AttemptClassification;
  report: LivenessReport;
}

type Readable = { index: number; frame: LivenessFrame; meta: EvidenceFrame };
type OneFace = Readable & { face: AnalyzedFace };

const isFailure = (r: LivenessFrame | FrameFailure): r is FrameFailure => 'error' in r;

/**
 * How a decision's outcome classifies the attempt.
 *
 * @example
 * classify('deepfakeDetected'); // 'attack'
 */
export function classify(outcome: LivenessOutcome): AttemptClassification {
  return outcome === 'livenessDetected'
    ? 'pass'
    : outcome === 'deepfakeDetected'
      ? 'attack'
      : 'failure';
}

/**
 * Decides a liveness attempt from the server's own analysis of the frames. Pure: the same
 * evidence and analyses always give the same decision. The page's claims count for nothing but
 * `cameraUnavailable`, which can only make the result `inconclusive`.
 *
 * Order of the checks: no camera, presentation attack (pad/assess.ts: any check saying attack,
 * whatever else is wrong with the attempt), timeout, no face, several faces, poor quality, person
 * changed, challenges (with the flat-motion rule; without challenges, no baseline is a timeout
 * and a baseline needs a blink after it), then `livenessDetected`.
 *
 * @example
 * const d = decideLiveness(evidence, await Promise.all(frames.map((f) => analyzer.analyze(f))));
 * if (d.outcome === 'inconclusive') console.log(d.inconclusiveReason);
 */
export function decideLiveness(
  evidence: LivenessEvidence,
  results: readonly (LivenessFrame | FrameFailure)[],
  options: Partial<LivenessOptions> = {},
): LivenessDecision {
  const o: LivenessOptions = {
    ...DEFAULT_LIVENESS_OPTIONS,
    ...options,
    challenge: { ...DEFAULT_THRESHOLDS, ...options.challenge },
  };
  if (results.length !== evidence.frames.length) {
    throw new Error(
      `${evidence.frames.length} evidence frames but ${results.length} analyses: they must pair up`,
    );
  }
  const readable: Readable[] = [];
  results.forEach((r, index) => {
    if (!isFailure(r)) readable.push({ index, frame: r, meta: evidence.frames[index]! });
  });
  const counted = (f: FrameAnalysis) => f.faces.filter((x) => x.score >= o.minFaceScore);
  const facesPerFrame = results.map((r) => (isFailure(r) ? 0 : counted(r).length));
  const one: OneFace[] = readable.flatMap((r) => {
    const faces = counted(r.frame);
    return faces.length === 1 && faces[0]!.keypoints.length >= 6 ? [{ ...r, face: faces[0]! }] : [];
  });
  const ts = evidence.frames.map((f) => f.t);
  const durationMs = ts.length ? Math.max(...ts) - Math.min(...ts) : 0;

  const report: LivenessReport = {
    frames: results.length,
    facesPerFrame,
    unreadableFrames: results.length - readable.length,
    durationMs,
    challenges: evidence.challenges.map((challenge) => ({
      challenge,
      met: false,
      frameIndex: null,
      value: 0,
      needed: 0,
    })),
    similarity: null,
    scores: null,
    pose: null,
    motion: null,
    brightnessMedian: median(readable.map((r) => r.frame.brightness)),
    bestFrameIndex: null,
    estimates: null,
    presentation: null,
    blink: null,
  };
  const done = (
    outcome: LivenessOutcome,
    inconclusiveReason?: InconclusiveReason,
  ): LivenessDecision => ({
    outcome,
    ...(inconclusiveReason ? { inconclusiveReason } : {}),
    classification: classify(outcome),
    report,
  });

  if (evidence.cameraUnavailable) return done('inconclusive', 'cameraUnavailable');
  if (results.length === 0) return done('inconclusive', 'poorQuality');

  // A presentation attack is decided first: whatever else is wrong with the attempt (too late,
  // too small, another face), frames showing an attack make it one, so that no retry of a
  // lesser failure can follow it.
  if (one.length > 0) {
    report.presentation = assessPresentation(
      one.map((x) => ({ face: x.face, cues: x.frame.cues ?? null })),
      { ...o.pad, minReal: o.minReal, minLive: o.minLive },
    );
    if (report.presentation.attack) return done('deepfakeDetected');
  }

  const limitMs = evidence.timeoutSeconds * 1000;
  if (evidence.receivedAt - evidence.issuedAt > limitMs + o.graceMs || durationMs > limitMs) {
    return done('inconclusive', 'timeout');
  }
  if (readable.length < results.length / 2) return done('inconclusive', 'poorQuality');

  const withFace = facesPerFrame.filter((n) => n > 0).length;
  if (withFace < results.length * o.minFaceFraction) return done('noFace');
  if (facesPerFrame.some((n) => n > 1)) return done('inconclusive', 'multipleFaces');

  // Each face's pose, read once: the best frame, the pose range and the baseline all use it.
  const poses = one.map((x) => headPose(x.face));
  const turn = new Map(one.map((x, i) => [x, Math.abs(poses[i]!.yawDegrees)]));
  const frontal = (x: OneFace) => turn.get(x)!;
  // Best frame: most frontal, then highest score.
  const best = [...one].sort((a, b) => frontal(a) - frontal(b) || b.face.score - a.face.score)[0];
  if (best) {
    report.bestFrameIndex = best.index;
    report.estimates = {
      age: best.face.age,
      gender: best.face.gender,
      genderScore: best.face.genderScore,
    };
  }
  if (poses.length) {
    const yaws = poses.map((p) => p.yawDegrees);
    const pitches = poses.map((p) => p.pitch);
    report.pose = {
      yawMin: Math.min(...yaws),
      yawMax: Math.max(...yaws),
      pitchMin: Math.min(...pitches),
      pitchMax: Math.max(...pitches),
    };
  }
  if (one.length) {
    const reals = one.map((x) => x.face.real);
    const lives = one.map((x) => x.face.live);
    report.scores = {
      realMedian: median(reals),
      liveMedian: median(lives),
      realMin: Math.min(...reals),
      liveMin: Math.max(0, Math.min(...lives)),
    };
    const ref = best!.face.embedding;
    const sims = one
      .filter((x) => x.face.embedding.length > 0 && ref.length === x.face.embedding.length)
      .map((x) => cosineSimilarity(ref, x.face.embedding));
    if (sims.length) report.similarity = { min: Math.min(...sims), median: median(sims) };
    report.motion = flatMotion(one, poses, o, evidence.challenges.length === 0);
  }
  // Read before the same-person check so that the frame that blinked is described with the best
  // frame (light-frames.ts); required only at the end, after every other check.
  const baselineT = evidence.frames.find((f) => f.role === 'baseline')?.t;
  if (evidence.challenges.length === 0 && baselineT !== undefined) {
    report.blink = blinkReport(one.filter((x) => x.meta.t >= baselineT));
  }

  const scaleOf = (x: OneFace) => x.face.box.width / Math.min(x.frame.width, x.frame.height);
  if (
    one.length < withFace ||
    withFace < results.length ||
    report.brightnessMedian < o.minBrightness ||
    one.some((x) => scaleOf(x) < o.minFaceScale)
  ) {
    return done('inconclusive', 'poorQuality');
  }
  if (!report.similarity || report.similarity.min < o.minSimilarity) {
    return done('inconclusive', 'personChanged');
  }

  // Baseline: the frame the page labelled as such (else the first), unless the server sees it
  // turned: the page's coarse detector can take it mid-movement, and every challenge is measured
  // against it. Then the first frame the server sees facing the camera stands in: the yaw change
  // between two frames of the same person (checked above) is a turn whenever each was filmed. The
  // order of the challenges still starts from the page's baseline.
  const labelled = one.find((x) => x.meta.role === 'baseline') ?? one[0]!;
  const facesCamera = (x: OneFace) => frontal(x) <= o.frontalDegrees;
  const baseline = facesCamera(labelled) ? labelled : (one.find(facesCamera) ?? labelled);
  let after = labelled.meta.t;
  report.challenges = evidence.challenges.map((challenge, ci) => {
    // The frames the page took for this challenge first; then the `between` frames taken while it
    // was the one asked (after the previous challenge was met, before the page moved past it). The
    // page's detector is coarse: it may take its frame mid-movement or miss a turn the server's
    // model sees plainly, and a frame the user was filmed in during the challenge is evidence too.
    const nextStart = Math.min(
      ...one
        .filter((x) => x.meta.role === 'challenge' && (x.meta.challengeIndex ?? -1) > ci)
        .map((x) => x.meta.t),
    );
    const candidates = [
      ...one.filter(
        (x) => x.meta.role === 'challenge' && x.meta.challengeIndex === ci && x.meta.t > after,
      ),
      ...one.filter((x) => x.meta.role === 'between' && x.meta.t > after && x.meta.t < nextStart),
    ];
    let closest: ChallengeReport = {
      challenge,
      met: false,
      frameIndex: null,
      value: -Infinity,
      needed: 0,
    };
    for (const x of candidates) {
      const m = measureChallenge(challenge, baseline.face, x.face, o.challenge);
      if (m.met || m.value > closest.value) closest = { challenge, ...m, frameIndex: x.index };
      if (m.met) break;
    }
    if (closest.met) after = evidence.frames[closest.frameIndex!]!.t;
    if (closest.frameIndex === null) closest.value = 0;
    return closest;
  });
  // Without challenges the page sends its `baseline` once it fits the face in the oval; before
  // that, up to three `between` frames while it cannot. A capture that never got a baseline and
  // whose face travelled or changed size without ever turning is a picture moved in front of the
  // camera (a cut-out shows no border or pattern: docs/liveness.md). A user who was fitted in the
  // end has a baseline, however they moved into the oval.
  const fitted = evidence.frames.some((f) => f.role === 'baseline');
  if (
    evidence.challenges.length === 0 &&
    o.flatMotionAsSpoof &&
    one.length >= 2 &&
    !fitted &&
    report.motion?.flat
  ) {
    return done('deepfakeDetected');
  }
  // Without challenges the baseline is the capture itself: the page takes it once the face has
  // fitted the oval, facing the camera, for a moment. A capture that never got one ran out of time
  // on the page (a face it could not fit: too far, off-centre, turned away, or a picture moved about
  // in front of the camera) and shows nothing the node asked for. It is not judged a pass from its
  // aligning frames: another try, with the reason (docs/liveness.md, step 9).
  if (evidence.challenges.length === 0 && !fitted) return done('inconclusive', 'timeout');
  // A capture without challenges that was fitted needs a blink in the frames the page took from
  // its baseline on (it asks for one, `liveness.blink`): a picture held still in the oval cannot
  // close its eyes, and no single frame tells it from a person (docs/decisions.md). Not an attack:
  // a person may not blink in those seconds, so another try, with the reason. Fewer than three eye
  // readings (frames read without the face mesh's eyelids) are no evidence of a blink: no pass.
  if (evidence.challenges.length === 0 && report.blink?.blink !== true) {
    return done('inconclusive', 'noBlink');
  }
  if (report.challenges.some((c) => !c.met)) {
    const turnMissed = report.challenges.some(
      (c) => !c.met && (c.challenge === 'turnLeft' || c.challenge === 'turnRight'),
    );
    if (o.flatMotionAsSpoof && turnMissed && report.motion?.flat) return done('deepfakeDetected');
    return done('inconclusive', 'challengeFailed');
  }
  return done('livenessDetected');
}

/** The eyes' opening over `frames`, in the order they were filmed. */
function blinkReport(frames: readonly OneFace[]): BlinkReport {
  const ordered = [...frames].sort((a, b) => a.meta.t - b.meta.t);
  const openness = ordered.map((x) => eyeOpenness(x.face.landmarks));
  let least = -1;
  for (let k = 0; k < openness.length; k++) {
    const v = openness[k];
    if (v != null && (least < 0 || v < openness[least]!)) least = k;
  }
  return {
    ...blinkEvidence(openness),
    frameIndex: least < 0 ? null : ordered[least]!.index,
    openness: openness.map((v) => (v === null ? null : Math.round(v * 1000) / 1000)),
  };
}

/**
 * A flat picture moved in front of the camera: the face travels (or, when `countScale`, changes
 * size), while the yaw never moves by even three quarters of a turn and the ears never move
 * against the nose.
 */
function flatMotion(
  one: readonly OneFace[],
  poses: readonly ReturnType<typeof headPose>[],
  o: LivenessOptions,
  countScale: boolean,
): { travel: number; scaleRange: number; flat: boolean } {
  const widths = one.map((x) => x.face.box.width);
  const w0 = median(widths);
  const cx = one.map((x) => x.face.box.x + x.face.box.width / 2);
  const cy = one.map((x) => x.face.box.y + x.face.box.height / 2);
  const travel =
    Math.hypot(Math.max(...cx) - Math.min(...cx), Math.max(...cy) - Math.min(...cy)) / w0;
  const scaleRange = Math.max(...widths) / Math.min(...widths);
  const yaws = poses.map((p) => p.yawDegrees);
  const ears = poses.map((p) => p.earShift);
  const stillPose =
    Math.max(...yaws) - Math.min(...yaws) < o.challenge.turnDegrees * o.flatYawShare &&
    Math.max(...ears) - Math.min(...ears) < 0.15;
  const moved = travel >= o.flatTravel || (countScale && scaleRange >= o.flatScale);
  return { travel, scaleRange, flat: moved && stillPose };
}
