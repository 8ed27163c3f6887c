/**
 * Finds the document in a photograph: the largest bright region against its background (Otsu's
 * threshold on a reduced copy), its four corners as the extremes of x+y and x−y, and the document
 * format from the straightened aspect ratio.
 */
import type { Pt } from './homography';
import { boxMean, type Gray } from './raster';

/** ICAO 9303 sizes in mm: TD3 passport page and TD1 card. */
export const DOC_MM = { TD3: { w: 125, h: 88 }, TD1: { w: 85.6, h: 54 } } as const;

function otsu(values: Float32Array): number {
  const hist = new Array<number>(256).fill(0);
  for (const v of values) hist[Math.max(0, Math.min(255, Math.round(v)))]!++;
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let at = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      at = t;
    }
  }
  return at;
}

export interface Quad {
  /** Top-left, top-right, bottom-right, bottom-left, in photo pixels. */
  corners: Pt[];
  /** Straightened width over height. */
  aspect: number;
}

/**
 * The document's outline, or null when no bright region covers at least a tenth of the photo.
 *
 * @example
 * const quad = locateDocument(toGray(decodeImage(jpeg)));
 */
export function locateDocument(g: Gray): Quad | null {
  const f = Math.max(1, Math.round(Math.max(g.width, g.height) / 320));
  const w = Math.floor(g.width / f);
  const h = Math.floor(g.height / f);
  const small = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++)
        for (let dx = 0; dx < f; dx++) s += g.data[(y * f + dy) * g.width + x * f + dx]!;
      small[y * w + x] = s / (f * f);
    }
  }
  const smooth = boxMean({ width: w, height: h, data: small }, 2);
  const t = otsu(smooth);
  // Largest 4-connected bright component.
  const label = new Int32Array(w * h).fill(-1);
  let bestSize = 0;
  let bestLabel = -1;
  const stack: number[] = [];
  let next = 0;
  for (let i = 0; i < w * h; i++) {
    if (label[i] !== -1 || smooth[i]! <= t) continue;
    let size = 0;
    stack.push(i);
    label[i] = next;
    while (stack.length) {
      const p = stack.pop()!;
      size++;
      const x = p % w;
      const y = (p - x) / w;
      for (const q of [
        x > 0 ? p - 1 : -1,
        x < w - 1 ? p + 1 : -1,
        y > 0 ? p - w : -1,
        y < h - 1 ? p + w : -1,
      ]) {
        if (q >= 0 && label[q] === -1 && smooth[q]! > t) {
          label[q] = next;
          stack.push(q);
        }
      }
    }
    if (size > bestSize) {
      bestSize = size;
      bestLabel = next;
    }
    next++;
  }
  if (bestSize < (w * h) / 10) return null;
  let tl = { v: Infinity, p: { x: 0, y: 0 } };
  let br = { v: -Infinity, p: { x: 0, y: 0 } };
  let tr = { v: -Infinity, p: { x: 0, y: 0 } };
  let bl = { v: Infinity, p: { x: 0, y: 0 } };
  for (let i = 0; i < w * h; i++) {
    if (label[i] !== bestLabel) continue;
    const x = i % w;
    const y = (i - x) / w;
    const p = { x: (x + 0.5) * f, y: (y + 0.5) * f };
    if (x + y < tl.v) tl = { v: x + y, p };
    if (x + y > br.v) br = { v: x + y, p };
    if (x - y > tr.v) tr = { v: x - y, p };
    if (x - y < bl.v) bl = { v: x - y, p };
  }
  const d = (a: Pt, b: Pt) => Math.hypot(a.x - b.x, a.y - b.y);
  const width = (d(tl.p, tr.p) + d(bl.p, br.p)) / 2;
  const height = (d(tl.p, bl.p) + d(tr.p, br.p)) / 2;
  return { corners: [tl.p, tr.p, br.p, bl.p], aspect: width / height };
}

/**
 * The format whose page shape is nearer the measured aspect ratio (TD3 1.42, TD1 1.59).
 *
 * @example
 * formatByAspect(1.6); // 'TD1'
 */
export function formatByAspect(aspect: number): 'TD1' | 'TD3' {
  const td3 = DOC_MM.TD3.w / DOC_MM.TD3.h;
  const td1 = DOC_MM.TD1.w / DOC_MM.TD1.h;
  return Math.abs(aspect - td1) < Math.abs(aspect - td3) ? 'TD1' : 'TD3';
}
