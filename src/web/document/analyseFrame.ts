import { toGray, type Gray } from './gray';
import { guideRect, scaleRect, type DocumentType } from './guide';
import { fitInGuide } from './inGuide';
import type { FrameReading } from './scanState';
import { laplacianVariance, SHARPNESS_WIDTH } from './sharpness';
import { frameDifference, nextSteadiness, type Steadiness } from './steadiness';

/** The width of the grey copy the guide and steadiness checks run on. */
export const CHECK_WIDTH = 240;

export interface FrameAnalyser {
  /** The checks of the video's current frame for a document type. */
  analyse(video: HTMLVideoElement, type: DocumentType, now: number): FrameReading | null;
}

function grayOf(
  ctx: CanvasRenderingContext2D,
  draw: (ctx: CanvasRenderingContext2D) => void,
  width: number,
  height: number,
): Gray {
  ctx.canvas.width = width;
  ctx.canvas.height = height;
  draw(ctx);
  return toGray(ctx.getImageData(0, 0, width, height).data, width, height);
}

/**
 * Runs the page's checks on camera frames: a small grey copy of the whole frame for the guide's
 * edges and the steadiness between frames, and the guide's area copied `SHARPNESS_WIDTH` wide
 * for the sharpness. A few milliseconds a frame; the camera's own pixels are only read, never
 * changed.
 *
 * @example
 * const analyser = createFrameAnalyser();
 * const reading = analyser.analyse(video, 'passport', performance.now());
 */
export function createFrameAnalyser(): FrameAnalyser {
  const small = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  const area = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  let previous: Gray | null = null;
  let steady: Steadiness = { since: null };
  return {
    analyse(video, type, now) {
      const w = video.videoWidth;
      const h = video.videoHeight;
      if (!small || !area || w === 0 || h === 0 || video.readyState < 2) return null;
      const frame = { width: w, height: h };
      const guide = guideRect(type, frame);
      const sw = CHECK_WIDTH;
      const sh = Math.round((h * sw) / w);
      const g = grayOf(small, (c) => c.drawImage(video, 0, 0, sw, sh), sw, sh);
      const fit = fitInGuide(g, scaleRect(guide, sw / w));
      steady = nextSteadiness(steady, previous ? frameDifference(previous, g) : Infinity, now);
      previous = g;
      const aw = SHARPNESS_WIDTH;
      const ah = Math.round((guide.height * aw) / guide.width);
      const a = grayOf(
        area,
        (c) => c.drawImage(video, guide.x, guide.y, guide.width, guide.height, 0, 0, aw, ah),
        aw,
        ah,
      );
      return { sides: fit.found, sharpness: laplacianVariance(a), steadySince: steady.since };
    },
  };
}
