/**
 * "Photographs" a flat document render: placed on a table in perspective, under uneven light,
 * blurred, with sensor noise, then JPEG-compressed. Deterministic for a seed.
 */
import jpeg from 'jpeg-js';
import { homography, type Pt } from '../../src/server/documents/homography';
import { rng, type Level } from './specimens';

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

export const PHOTO_W = 1280;
export const PHOTO_H = 960;

const LEVELS: Record<
  Level,
  { tilt: number; rot: number; light: number; blur: number; noise: number; quality: number }
> = {
  clean: { tilt: 0, rot: 0, light: 0, blur: 0, noise: 0, quality: 92 },
  mild: { tilt: 0.02, rot: 2, light: 0.15, blur: 0.6, noise: 4, quality: 88 },
  moderate: { tilt: 0.04, rot: 5, light: 0.3, blur: 1.0, noise: 8, quality: 80 },
  heavy: { tilt: 0.07, rot: 10, light: 0.45, blur: 1.8, noise: 14, quality: 65 },
};

function gaussian(r: () => number): number {
  const u = Math.max(1e-9, r());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

/** Separable Gaussian blur of an RGB float image in place. */
function blur(img: Float32Array, w: number, h: number, sigma: number): void {
  if (sigma <= 0) return;
  const rad = Math.ceil(sigma * 2.5);
  const k: number[] = [];
  let sum = 0;
  for (let i = -rad; i <= rad; i++) {
    const v = Math.exp(-(i * i) / (2 * sigma * sigma));
    k.push(v);
    sum += v;
  }
  const kern = k.map((v) => v / sum);
  const tmp = new Float32Array(img.length);
  for (let pass = 0; pass < 2; pass++) {
    const src = pass === 0 ? img : tmp;
    const dst = pass === 0 ? tmp : img;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (let c = 0; c < 3; c++) {
          let acc = 0;
          for (let i = -rad; i <= rad; i++) {
            const xx = pass === 0 ? Math.min(w - 1, Math.max(0, x + i)) : x;
            const yy = pass === 0 ? y : Math.min(h - 1, Math.max(0, y + i));
            acc += src[(yy * w + xx) * 3 + c]! * kern[i + rad]!;
          }
          dst[(y * w + x) * 3 + c] = acc;
        }
      }
    }
  }
}

/**
 * The photograph of `doc` as JPEG bytes, and where the document's corners landed.
 *
 * @example
 * const { jpeg } = photograph(flat, 'moderate', 42);
 */
export function photograph(
  doc: Rgba,
  level: Level,
  seed: number,
): { jpeg: Uint8Array; corners: Pt[] } {
  const p = LEVELS[level];
  const r = rng(seed * 31 + 5);
  const W = PHOTO_W;
  const H = PHOTO_H;
  // The document fills about 80% of the frame's width, as a capture guide would have it.
  const scale = Math.min((W * 0.8) / doc.width, (H * 0.8) / doc.height);
  const dw = doc.width * scale;
  const dh = doc.height * scale;
  const cx = W / 2 + (r() - 0.5) * W * 0.04;
  const cy = H / 2 + (r() - 0.5) * H * 0.04;
  const angle = ((r() * 2 - 1) * p.rot * Math.PI) / 180;
  const base: Pt[] = [
    { x: -dw / 2, y: -dh / 2 },
    { x: dw / 2, y: -dh / 2 },
    { x: dw / 2, y: dh / 2 },
    { x: -dw / 2, y: dh / 2 },
  ];
  const corners = base.map((q) => {
    const jx = q.x + (r() * 2 - 1) * p.tilt * dw;
    const jy = q.y + (r() * 2 - 1) * p.tilt * dh;
    return {
      x: cx + jx * Math.cos(angle) - jy * Math.sin(angle),
      y: cy + jx * Math.sin(angle) + jy * Math.cos(angle),
    };
  });
  const src: Pt[] = [
    { x: 0, y: 0 },
    { x: doc.width, y: 0 },
    { x: doc.width, y: doc.height },
    { x: 0, y: doc.height },
  ];
  const toDoc = homography(corners, src);
  if (!toDoc) throw new Error('degenerate document placement');
  const img = new Float32Array(W * H * 3);
  const table = [70 + r() * 40, 55 + r() * 30, 45 + r() * 25];
  const lx = r() * 2 - 1;
  const ly = r() * 2 - 1;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const w = toDoc[6]! * x + toDoc[7]! * y + toDoc[8]!;
      const u = (toDoc[0]! * x + toDoc[1]! * y + toDoc[2]!) / w - 0.5;
      const v = (toDoc[3]! * x + toDoc[4]! * y + toDoc[5]!) / w - 0.5;
      const grain = ((x * 73856093) ^ (y * 19349663)) & 15;
      let rgb = [table[0]! + grain, table[1]! + grain, table[2]! + grain];
      if (u >= 0 && v >= 0 && u < doc.width - 1 && v < doc.height - 1) {
        const x0 = Math.floor(u);
        const y0 = Math.floor(v);
        const ax = u - x0;
        const ay = v - y0;
        rgb = [0, 1, 2].map((c) => {
          const at = (xx: number, yy: number) => doc.data[(yy * doc.width + xx) * 4 + c]!;
          const t = at(x0, y0) * (1 - ax) + at(x0 + 1, y0) * ax;
          const b = at(x0, y0 + 1) * (1 - ax) + at(x0 + 1, y0 + 1) * ax;
          return t * (1 - ay) + b * ay;
        });
      }
      // Light from one side, falling off across the frame.
      const nx = x / W - 0.5;
      const ny = y / H - 0.5;
      const light = 1 - p.light * (0.5 + nx * lx + ny * ly) - p.light * 0.6 * (nx * nx + ny * ny);
      img[o] = rgb[0]! * light;
      img[o + 1] = rgb[1]! * light;
      img[o + 2] = rgb[2]! * light;
    }
  }
  blur(img, W, H, p.blur);
  const out = new Uint8Array(W * H * 4);
  for (let i = 0, j = 0; i < W * H * 3; i += 3, j += 4) {
    const n = p.noise > 0 ? gaussian(r) * p.noise : 0;
    for (let c = 0; c < 3; c++)
      out[j + c] = Math.max(0, Math.min(255, Math.round(img[i + c]! + n)));
    out[j + 3] = 255;
  }
  const encoded = jpeg.encode({ data: out, width: W, height: H }, p.quality);
  return { jpeg: new Uint8Array(encoded.data), corners };
}
