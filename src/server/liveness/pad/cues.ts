/**
 * What one frame's pixels say about the face in it, for the presentation-attack checks: a border
 * around the face, text beside it, a regular pattern on it, its size in the frame. Worked out by the
 * frame job while the pixels are at hand and stored with the frame's analysis; the decision then
 * reads the stored figures only.
 */
import type { AnalyzedFace } from '../../face-analysis/analyzer';
import type { RgbImage } from '../../face-analysis/image';
import { MIN_MATCH_FACE_SCORE, mainFace } from '../../face-analysis/main-face';
import { toGray } from '../../documents/raster';
import { enclosingBorder, type BorderCue } from './border';
import { halve, sobel } from './gradient';
import { spectralPeaks, type SpectrumCue } from './spectrum';
import { textBeside, type TextCue } from './text';

export interface FrameCues {
  /** Face width over the frame's shorter side. */
  scale: number;
  border: BorderCue;
  text: TextCue;
  spectrum: SpectrumCue;
  /** Milliseconds the cues took. */
  ms: number;
}

/**
 * The cues of the frame's main face (the largest confident one, as the decision counts faces), or
 * null without one.
 *
 * @example
 * const cues = frameCues(decodeImage(bytes), analysis.faces);
 * cues?.border.enclosed; // true: a straight edge under the face and on two more sides
 */
export function frameCues(img: RgbImage, faces: readonly AnalyzedFace[]): FrameCues | null {
  const face = mainFace(
    { faces: [...faces] },
    { minScore: MIN_MATCH_FACE_SCORE, withEmbedding: false },
  );
  if (!face) return null;
  const t0 = performance.now();
  const gray = toGray(img);
  // Edges and strokes are looked for at half size: four times fewer pixels, the same lines.
  const half = sobel(halve(gray));
  const b = face.box;
  const box = { x: b.x / 2, y: b.y / 2, width: b.width / 2, height: b.height / 2 };
  return {
    scale: face.box.width / Math.min(img.width, img.height),
    border: enclosingBorder(half, box),
    text: textBeside(half, box),
    spectrum: spectralPeaks(gray, face.box),
    ms: performance.now() - t0,
  };
}
