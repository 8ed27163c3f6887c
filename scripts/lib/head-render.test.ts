import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headPose } from '../../src/core/liveness';
import {
  headMesh,
  placeMesh,
  project,
  render,
  rotate,
  surfaceDepth,
  toCamera,
  type HeadShape,
  type RgbImage,
  type Vec3,
} from './head-render';

const cam = { focal: 500, cx: 320, cy: 240 };
const none = { yaw: 0, pitch: 0, roll: 0 };
const close = (a: Vec3, b: Vec3, d = 1e-9) => {
  expect(a.x).toBeCloseTo(b.x, -Math.log10(d));
  expect(a.y).toBeCloseTo(b.y, -Math.log10(d));
  expect(a.z).toBeCloseTo(b.z, -Math.log10(d));
};

describe('rotate', () => {
  it('turns the nose (z out of the face) to the image right for a turn to the user’s left', () => {
    const n = rotate({ x: 0, y: 0, z: 1 }, { yaw: 30, pitch: 0, roll: 0 });
    expect(n.x).toBeCloseTo(0.5, 9);
    expect(n.z).toBeCloseTo(Math.sqrt(3) / 2, 9);
    expect(rotate({ x: 0, y: 0, z: 1 }, { yaw: -30, pitch: 0, roll: 0 }).x).toBeCloseTo(-0.5, 9);
  });

  it('moves the nose up (−y) when looking up, and rolls clockwise in the image', () => {
    expect(rotate({ x: 0, y: 0, z: 1 }, { yaw: 0, pitch: 20, roll: 0 }).y).toBeCloseTo(
      -Math.sin((20 * Math.PI) / 180),
      9,
    );
    // x-axis rolled by 90° points down the image (y grows downwards).
    close(rotate({ x: 1, y: 0, z: 0 }, { yaw: 0, pitch: 0, roll: 90 }), { x: 0, y: 1, z: 0 });
  });

  it('keeps lengths, and undoing each angle in reverse order gives the point back', () => {
    const angle = fc.double({ min: -90, max: 90, noNaN: true });
    const coord = fc.double({ min: -100, max: 100, noNaN: true });
    fc.assert(
      fc.property(angle, angle, angle, coord, coord, coord, (yaw, pitch, roll, x, y, z) => {
        const p = { x, y, z };
        const r = rotate(p, { yaw, pitch, roll });
        expect(Math.hypot(r.x, r.y, r.z)).toBeCloseTo(Math.hypot(x, y, z), 6);
        const back = rotate(
          rotate(rotate(r, { yaw: 0, pitch: 0, roll: -roll }), { yaw: 0, pitch: -pitch, roll: 0 }),
          { yaw: -yaw, pitch: 0, roll: 0 },
        );
        close(back, p, 1e-6);
      }),
    );
  });
});

describe('project', () => {
  it('is a pinhole: x = cx + f·X/Z, and halves offsets at twice the distance', () => {
    expect(project({ x: 10, y: -20, z: 100 }, cam)).toEqual({ x: 370, y: 140 });
    expect(project({ x: 10, y: -20, z: 200 }, cam)).toEqual({ x: 345, y: 190 });
  });

  it('refuses points at or behind the camera', () => {
    expect(() => project({ x: 0, y: 0, z: 0 }, cam)).toThrow(RangeError);
    expect(() => project({ x: 0, y: 0, z: -5 }, cam)).toThrow(RangeError);
  });
});

describe('toCamera', () => {
  it('puts the head’s front (z out of the face) nearer the camera', () => {
    const origin = { x: 0, y: 0, z: 400 };
    close(toCamera({ x: 0, y: 0, z: 50 }, none, { x: 0, y: 0, z: 0 }, origin), {
      x: 0,
      y: 0,
      z: 350,
    });
  });

  it('leaves the pivot where it is whatever the rotation', () => {
    const pivot = { x: 3, y: 90, z: -12 };
    const origin = { x: 10, y: -5, z: 400 };
    const p = toCamera(pivot, { yaw: 25, pitch: 15, roll: 5 }, pivot, origin);
    close(p, { x: origin.x + pivot.x, y: origin.y + pivot.y, z: origin.z - pivot.z });
  });

  it('gives perspective parallax: on a turn the nose moves more on screen than a point behind', () => {
    const pivot = { x: 0, y: 0, z: 0 };
    const origin = { x: 0, y: 0, z: 400 };
    const turn = { yaw: 30, pitch: 0, roll: 0 };
    const nose = project(toCamera({ x: 0, y: 0, z: 60 }, turn, pivot, origin), cam);
    const ear = project(toCamera({ x: 0, y: 0, z: -20 }, turn, pivot, origin), cam);
    expect(nose.x).toBeGreaterThan(cam.cx);
    expect(ear.x).toBeLessThan(cam.cx);
  });
});

const shape: HeadShape = {
  cx: 50,
  cy: 50,
  a: 40,
  b: 48,
  c: 35,
  nose: { x: 50, bridgeY: 40, tipY: 58, bridgeH: 3, tipH: 12, width: 4 },
  bumps: [
    { x: 38, y: 42, sx: 4, sy: 3, h: -3 },
    { x: 62, y: 42, sx: 4, sy: 3, h: -3 },
  ],
};

describe('surfaceDepth', () => {
  it('is the ellipsoid plus the relief: the nose tip stands out, nothing outside the outline', () => {
    expect(surfaceDepth(shape, 0, 0)).toBeUndefined();
    const tip = surfaceDepth(shape, 50, 58)!;
    const eye = surfaceDepth(shape, 38, 42)!;
    const cheek = surfaceDepth(shape, 80, 58)!;
    expect(tip).toBeGreaterThan(shape.c);
    expect(tip - eye).toBeGreaterThan(10);
    expect(cheek).toBeLessThan(eye);
  });
});

/** A synthetic face texture: dark eyes, nose tip and mouth on a light skin, grey around. */
function faceTexture(): RgbImage {
  const w = 100;
  const h = 100;
  const rgb = new Uint8Array(w * h * 3).fill(200);
  const dot = (cx: number, cy: number, r: number, v: number) => {
    for (let y = cy - r; y <= cy + r; y++) {
      for (let x = cx - r; x <= cx + r; x++) rgb.fill(v, (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
  };
  dot(38, 42, 2, 0);
  dot(62, 42, 2, 0);
  dot(50, 58, 2, 0);
  dot(50, 72, 2, 0);
  return { width: w, height: h, rgb };
}

/** The centroid of dark pixels in a rectangle of a rendered frame. */
function darkCentroid(img: RgbImage, x0: number, x1: number, y0: number, y1: number) {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (img.rgb[(y * img.width + x) * 3]! < 60) {
        sx += x;
        sy += y;
        n++;
      }
    }
  }
  return { x: sx / n, y: sy / n };
}

describe('render', () => {
  it('draws a turned head whose rendered nose moves against its eyes the way headPose reads a turn', () => {
    const mesh = headMesh(shape, faceTexture(), 1);
    const camera = { focal: 400, cx: 100, cy: 100 };
    const draw = (yaw: number) =>
      render(
        [
          placeMesh(
            mesh,
            { yaw, pitch: 0, roll: 0 },
            { x: 0, y: 0, z: -10 },
            { x: 0, y: 0, z: 200 },
          ),
        ],
        camera,
        200,
        200,
        [90, 90, 90],
      );
    const keypoints = (img: RgbImage) => {
      // The two eye blobs lie either side of their common centroid.
      const eyes = darkCentroid(img, 0, 200, 0, 95);
      const left = darkCentroid(img, 0, Math.round(eyes.x), 0, 95);
      const right = darkCentroid(img, Math.round(eyes.x), 200, 0, 95);
      const nose = darkCentroid(img, 0, 200, 100, 128);
      const mouth = darkCentroid(img, 0, 200, 128, 165);
      return [left, right, nose, mouth, { x: 0, y: 100 }, { x: 200, y: 100 }];
    };
    const pose = (yaw: number) =>
      headPose({ box: { x: 0, y: 0, width: 100, height: 100 }, keypoints: keypoints(draw(yaw)) });
    const frontal = pose(0);
    expect(Math.abs(frontal.yawDegrees)).toBeLessThan(3);
    expect(pose(25).yawDegrees).toBeGreaterThan(frontal.yawDegrees + 10);
    expect(pose(-25).yawDegrees).toBeLessThan(frontal.yawDegrees - 10);
  });

  it('keeps the nearest surface where two overlap, whatever the drawing order', () => {
    const tex = (v: number): RgbImage => ({ width: 2, height: 2, rgb: new Uint8Array(12).fill(v) });
    const quad = (v: number, z: number) => ({
      mesh: {
        positions: [],
        normals: [],
        uv: [
          { u: 0, v: 0 },
          { u: 2, v: 0 },
          { u: 0, v: 2 },
          { u: 2, v: 2 },
        ],
        triangles: [0, 1, 3, 0, 3, 2],
        texture: tex(v),
      },
      camera: [
        { x: -50, y: -50, z },
        { x: 50, y: -50, z },
        { x: -50, y: 50, z },
        { x: 50, y: 50, z },
      ],
      shade: [1, 1, 1, 1],
    });
    const near = quad(250, 100);
    const far = quad(10, 200);
    const camera = { focal: 100, cx: 100, cy: 100 };
    const a = render([far, near], camera, 200, 200, [0, 0, 0]);
    const b = render([near, far], camera, 200, 200, [0, 0, 0]);
    expect(a.rgb[(100 * 200 + 100) * 3]).toBe(250);
    expect(b.rgb[(100 * 200 + 100) * 3]).toBe(250);
    // The near quad covers 50–150 on screen, the far one 75–125.
    expect(a.rgb[(60 * 200 + 60) * 3]).toBe(250);
    // Outside both: the background.
    expect(a.rgb[0]).toBe(0);
  });
});
