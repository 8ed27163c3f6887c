/**
 * "Photographs" a flat document render: placed on a table in perspective, under uneven light,
 * blurred, with sensor noise, then JPEG-compressed. Deterministic for a seed. A forger's copy is
 * made first: a greyscale photocopy (`photocopy`) or the document shown on a screen (`onScreen`).
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

/** Separable Gaussian blur of an RGB float image in place (edges clamped). */
function blur(img: Float32Array, w: number, h: number, sigma: number): void {
  if (sigma <= 0) return;
  const rad = Math.ceil(sigma * 2.5);
  const kern = new Float32Array(2 * rad + 1);
  let sum = 0;
  for (let i = -rad; i <= rad; i++) {
    kern[i + rad] = Math.exp(-(i * i) / (2 * sigma * sigma));
    sum += kern[i + rad]!;
  }
  for (let i = 0; i < kern.length; i++) kern[i] = kern[i]! / sum;
  const tmp = new Float32Array(img.length);
  // Horizontal into tmp, then vertical back into img.
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let i = -rad; i <= rad; i++) {
        const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
        const o = (row + xx) * 3;
        const k = kern[i + rad]!;
        r += img[o]! * k;
        g += img[o + 1]! * k;
        b += img[o + 2]! * k;
      }
      const o = (row + x) * 3;
      tmp[o] = r;
      tmp[o + 1] = g;
      tmp[o + 2] = b;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let i = -rad; i <= rad; i++) {
        const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i;
        const o = (yy * w + x) * 3;
        const k = kern[i + rad]!;
        r += tmp[o]! * k;
        g += tmp[o + 1]! * k;
        b += tmp[o + 2]! * k;
      }
      const o = (y * w + x) * 3;
      img[o] = r;
      img[o + 1] = g;
      img[o + 2] = b;
    }
  }
}

/**
 * A greyscale photocopy of a render: luma only, the toner's black about 60 and the paper's white
 * about 215 (a copier's flat contrast), toner speckle.
 *
 * @example
 * photograph(photocopy(flat, 7), 'clean', 7);
 */
export function photocopy(doc: Rgba, seed: number): Rgba {
  const r = rng(seed * 17 + 1);
  const out = new Uint8Array(doc.data.length);
  for (let i = 0; i < doc.data.length; i += 4) {
    const y = (doc.data[i]! * 77 + doc.data[i + 1]! * 150 + doc.data[i + 2]! * 29) >> 8;
    const v = Math.max(0, Math.min(255, 60 + y * 0.6 + (r() - 0.5) * 14));
    out[i] = out[i + 1] = out[i + 2] = v;
    out[i + 3] = 255;
  }
  return { width: doc.width, height: doc.height, data: out };
}

/**
 * A render shown on a screen: every pixel three vertical stripes (red, green, blue) with a dark
 * line between rows, a backlight that lifts the blacks and a bluish white, at three raster pixels
 * a screen pixel, so that the photograph samples the stripes as a camera does (moiré).
 *
 * @example
 * photograph(onScreen(flat), 'clean', 7);
 */
export function onScreen(doc: Rgba): Rgba {
  const k = 3;
  const width = doc.width * k;
  const height = doc.height * k;
  const out = new Uint8Array(width * height * 4);
  const tint = [0.86, 0.93, 1];
  for (let y = 0; y < height; y++) {
    const sy = Math.floor(y / k);
    const gap = y % k === k - 1 ? 0.45 : 1;
    for (let x = 0; x < width; x++) {
      const sx = Math.floor(x / k);
      const c = x % k;
      const o = (y * width + x) * 4;
      const i = (sy * doc.width + sx) * 4;
      // The stripe's own colour lit, the other two bleeding in (the camera sets its exposure for
      // the screen, so a white shows about as bright as paper).
      for (let ch = 0; ch < 3; ch++) {
        const v = doc.data[i + ch]! * tint[ch]!;
        out[o + ch] = Math.min(255, (ch === c ? 40 + 0.9 * v : 20 + 0.45 * v) * gap);
      }
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
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
  const d = doc.data;
  const dw4 = doc.width * 4;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const w = toDoc[6]! * x + toDoc[7]! * y + toDoc[8]!;
      const u = (toDoc[0]! * x + toDoc[1]! * y + toDoc[2]!) / w - 0.5;
      const v = (toDoc[3]! * x + toDoc[4]! * y + toDoc[5]!) / w - 0.5;
      const grain = ((x * 73856093) ^ (y * 19349663)) & 15;
      let r0 = table[0]! + grain;
      let g0 = table[1]! + grain;
      let b0 = table[2]! + grain;
      if (u >= 0 && v >= 0 && u < doc.width - 1 && v < doc.height - 1) {
        const x0 = Math.floor(u);
        const y0 = Math.floor(v);
        const ax = u - x0;
        const ay = v - y0;
        const i00 = y0 * dw4 + x0 * 4;
        const i10 = i00 + 4;
        const i01 = i00 + dw4;
        const i11 = i01 + 4;
        const w00 = (1 - ax) * (1 - ay);
        const w10 = ax * (1 - ay);
        const w01 = (1 - ax) * ay;
        const w11 = ax * ay;
        r0 = d[i00]! * w00 + d[i10]! * w10 + d[i01]! * w01 + d[i11]! * w11;
        g0 = d[i00 + 1]! * w00 + d[i10 + 1]! * w10 + d[i01 + 1]! * w01 + d[i11 + 1]! * w11;
        b0 = d[i00 + 2]! * w00 + d[i10 + 2]! * w10 + d[i01 + 2]! * w01 + d[i11 + 2]! * w11;
      }
      // Light from one side, falling off across the frame.
      const nx = x / W - 0.5;
      const ny = y / H - 0.5;
      const light = 1 - p.light * (0.5 + nx * lx + ny * ly) - p.light * 0.6 * (nx * nx + ny * ny);
      img[o] = r0 * light;
      img[o + 1] = g0 * light;
      img[o + 2] = b0 * light;
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
