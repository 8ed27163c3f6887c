import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { powerSpectrum } from './fft';
import { faceLike, raster } from './pad-test-images';
import { spectralPeaks } from './spectrum';

const box = { x: 96, y: 56, width: 128, height: 128 };
const face = (x: number, y: number) => faceLike(x, y, 160, 120, 128);

describe('powerSpectrum', () => {
  it('puts a pure cosine at its frequency', () => {
    const n = 16;
    const patch = Float64Array.from({ length: n * n }, (_, i) =>
      Math.cos((2 * Math.PI * 3 * (i % n)) / n),
    );
    const p = powerSpectrum(patch, n);
    const top = [...p].map((v, i) => [v, i]).sort((a, b) => b[0]! - a[0]!);
    expect([top[0]![1], top[1]![1]].sort((a, b) => a! - b!)).toEqual([3, n - 3]);
  });
});

describe('spectralPeaks', () => {
  it('finds no strong peak on a smooth face', () => {
    const cue = spectralPeaks(raster(320, 240, face), box);
    expect(cue.size).toBe(64);
    expect(cue.peakRatio).toBeLessThan(30);
  });

  it('finds a screen-like grid as a strong peak at its frequency', () => {
    // A pixel grid of period 2.6 px seen at an angle: what moiré is made of.
    const grid = (x: number, y: number) =>
      face(x, y) * (0.8 + 0.2 * Math.cos((2 * Math.PI * (x * 0.94 + y * 0.34)) / 2.6));
    const cue = spectralPeaks(raster(320, 240, grid), box);
    expect(cue.peakRatio).toBeGreaterThan(200);
    expect(Math.hypot(cue.peak!.fx, cue.peak!.fy)).toBeCloseTo(1 / 2.6, 1);
  });

  it('is not fooled by heavy JPEG compression (8-pixel blocks)', () => {
    const g = raster(320, 240, face);
    const rgba = new Uint8Array(g.width * g.height * 4);
    g.data.forEach((v, i) => rgba.set([v, v, v, 255], i * 4));
    const bytes = jpeg.encode({ data: rgba, width: g.width, height: g.height }, 12).data;
    const back = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false });
    const data = new Uint8Array(g.width * g.height).map((_, i) => back.data[i * 3]!);
    expect(spectralPeaks({ ...g, data }, box).peakRatio).toBeLessThan(40);
  });
});
