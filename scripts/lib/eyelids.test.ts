import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { createHumanAnalyzer } from '../../src/server/face-analysis/human-analyzer';
import { eyeOpenness } from '../../src/server/liveness/pad/eyes';
import { toJpeg } from '../fixtures/simulate-attempts';
import { ASTRONAUT_EYES, closeEyes, type EyeSpot } from './eyelids';

/** A 60×40 picture: skin (200) with a dark eye opening (40) at (30, 20), 8 × 3 half sizes. */
function portrait(): { img: { width: number; height: number; rgb: Uint8Array }; eye: EyeSpot } {
  const width = 60;
  const height = 40;
  const rgb = new Uint8Array(width * height * 3).fill(200);
  const eye: EyeSpot = { x: 30, y: 20, halfWidth: 8, halfHeight: 3 };
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (((x - 30) / 8) ** 2 + ((y - 20) / 3) ** 2 <= 1)
        rgb.fill(40, (y * width + x) * 3, (y * width + x) * 3 + 3);
  return { img: { width, height, rgb }, eye };
}
const px = (img: { width: number; rgb: Uint8Array }, x: number, y: number) =>
  img.rgb[(y * img.width + x) * 3]!;

describe('closeEyes', () => {
  it('leaves the photo as it is when open, and never changes the input', () => {
    const { img, eye } = portrait();
    const before = new Uint8Array(img.rgb);
    expect(closeEyes(img, [eye], 0).rgb).toEqual(before);
    closeEyes(img, [eye], 1);
    expect(img.rgb).toEqual(before);
  });

  it('covers the opening with lid skin when closed, a dark lash line below the centre', () => {
    const { img, eye } = portrait();
    const closed = closeEyes(img, [eye], 1);
    // The upper half of the opening is lid now (skin 200 × 0.93), not the dark eye.
    expect(px(closed, 30, 18)).toBeGreaterThan(150);
    expect(px(closed, 26, 19)).toBeGreaterThan(150);
    // The lash line, where the lid ends (0.75 half heights below the centre), is darker than the lid.
    expect(px(closed, 30, 20)).toBeLessThan(0.85 * px(closed, 30, 18));
    expect(px(closed, 30, 20)).toBeGreaterThan(100);
    // Outside the eye nothing moved.
    expect(px(closed, 5, 5)).toBe(200);
    expect(px(closed, 30, 26)).toBe(200);
  });

  it('takes the lid skin from the row given (below the eye when glasses sit above it)', () => {
    const { img, eye } = portrait();
    // A dark rim just above the eye, where the lid's skin is taken from by default.
    img.rgb.fill(0, (15 * img.width + 20) * 3, (15 * img.width + 41) * 3);
    expect(px(closeEyes(img, [eye], 1), 30, 18)).toBeLessThan(20);
    expect(px(closeEyes(img, [{ ...eye, skinY: 26 }], 1), 30, 18)).toBeGreaterThan(150);
  });

  it('closes half way at 0.5: the top covered, the lower opening still dark', () => {
    const { img, eye } = portrait();
    const half = closeEyes(img, [eye], 0.5);
    expect(px(half, 30, 17)).toBeGreaterThan(150);
    expect(px(half, 30, 22)).toBe(40);
  });
});

const astronautFile = resolve(__dirname, '../../.tmp/fixtures/astronaut.png');

describe.skipIf(!existsSync(astronautFile))('the server analyzer on painted lids', () => {
  it('sees the astronaut close her eyes with the iris model, hardly without it', async () => {
    const png = PNG.sync.read(readFileSync(join(astronautFile)));
    const rgb = new Uint8Array(png.width * png.height * 3);
    for (let i = 0; i < png.width * png.height; i++) {
      for (let c = 0; c < 3; c++) rgb[i * 3 + c] = png.data[i * 4 + c]!;
    }
    const photo = { width: png.width, height: png.height, rgb };
    const ratio = async (iris: boolean) => {
      const analyzer = createHumanAnalyzer({ iris });
      try {
        const read = async (amount: number) => {
          const a = await analyzer.analyze(toJpeg(closeEyes(photo, ASTRONAUT_EYES, amount)));
          return eyeOpenness(a.faces[0]?.landmarks)!;
        };
        return (await read(1)) / (await read(0));
      } finally {
        await analyzer.close();
      }
    };
    // Measured: 0.57 with the iris model, 0.80 without (a blink is at most 0.75 of the median).
    const withIris = await ratio(true);
    const without = await ratio(false);
    expect(withIris).toBeLessThan(0.65);
    expect(without).toBeGreaterThan(withIris + 0.1);
  }, 60_000);
});
