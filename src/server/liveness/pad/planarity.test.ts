import { describe, expect, it } from 'vitest';
import { homographyResidual, planarMotion, similarityResidual, type Landmarks } from './planarity';

/** 64 points over a face-sized oval; eyes at indexes 36/37 and 40/41 as in LANDMARK_INDEXES. */
function facePoints(): [number, number, number][] {
  const pts: [number, number, number][] = [];
  for (let i = 0; i < 64; i++) {
    const a = (2 * Math.PI * i) / 36;
    const r = i < 36 ? 1 : 0.25 + (0.6 * ((i * 37) % 11)) / 11;
    const x = r * 70 * Math.cos(a + i);
    const y = r * 90 * Math.sin(a + i);
    // Depth of a head: the middle of the face in front, the outline far behind, the nose most.
    const z =
      60 * Math.sqrt(Math.max(0, 1 - (x / 75) ** 2 - (y / 95) ** 2)) + (i >= 48 && i < 58 ? 25 : 0);
    pts.push([x, y, z]);
  }
  pts[36] = [-45, -20, 40];
  pts[37] = [-15, -20, 45];
  pts[40] = [15, -20, 45];
  pts[41] = [45, -20, 40];
  return pts;
}

/** The points turned by `yaw` degrees and seen through a pinhole 600 px away. */
function view(pts: [number, number, number][], yaw: number, flat = false): Landmarks {
  const c = Math.cos((yaw * Math.PI) / 180);
  const s = Math.sin((yaw * Math.PI) / 180);
  return pts.map(([x, y, z0]) => {
    const z = flat ? 0 : z0;
    const xr = x * c + z * s;
    const zr = -x * s + z * c;
    const d = 600 - zr;
    return [320 + (800 * xr) / d, 240 + (800 * y) / d] as const;
  });
}

describe('similarityResidual and homographyResidual', () => {
  it('fit a plane seen from two sides with a homography, not a similarity', () => {
    const pts = facePoints();
    const a = view(pts, 0, true);
    const b = view(pts, 30, true);
    expect(homographyResidual(a, b)).toBeLessThan(0.01);
    expect(similarityResidual(a, b)).toBeGreaterThan(2);
  });
});

describe('planarMotion', () => {
  it('calls a flat face turned in 3D planar', () => {
    const pts = facePoints();
    const cue = planarMotion([0, 15, 30, -20].map((yaw) => view(pts, yaw, true)));
    expect(cue.verdict).toBe('planar');
    expect(cue.ratio!).toBeLessThan(0.1);
  });

  it('calls a head turning 20–30° depth', () => {
    const pts = facePoints();
    const cue = planarMotion([0, 25, -25, 10].map((yaw) => view(pts, yaw)));
    expect(cue.verdict).toBe('depth');
  });

  it('says unknown when nothing changed but the landmark model’s scatter', () => {
    const pts = facePoints();
    const still = [0, 1, 2].map((k) =>
      view(pts, 0).map(
        ([x, y], i) => [x + 0.3 * Math.sin(i * 3 + k), y + 0.3 * Math.cos(i * 5 + k)] as const,
      ),
    );
    expect(planarMotion(still).verdict).toBe('unknown');
  });
});
