/**
 * A small software renderer for the liveness fixtures: a face photo mapped onto a 3D head shape
 * (an ellipsoid with a relief: nose, brow, eye sockets, cheeks, lips, chin) and drawn with
 * perspective in front of a flat backdrop, so that turning the head shows real parallax (the nose
 * moves against the eyes, the eyes against the sides of the head), which a photo moved in 2D
 * cannot show.
 *
 * Coordinates: a head's own space has x to the image's right, y down and z out of the face
 * (towards the camera), in the photo's pixels. The camera looks along +Z from the origin, with X
 * right and Y down; a head facing the camera has its z along −Z.
 */

/** A point or a direction in 3D. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/**
 * A head orientation in degrees, from the user's point of view: `yaw` > 0 is a turn to the
 * user's own left (the nose moves to the image's right in an unmirrored frame), `pitch` > 0 looks
 * up (the nose moves up), `roll` > 0 tilts the head clockwise in the image.
 */
export interface Orientation {
  yaw: number;
  pitch: number;
  roll: number;
}

/** A pinhole camera: focal length and principal point in output pixels. */
export interface Camera {
  focal: number;
  cx: number;
  cy: number;
}

/** RGB pixels, 3 bytes each, row by row. */
export interface RgbImage {
  width: number;
  height: number;
  rgb: Uint8Array;
}

const RAD = Math.PI / 180;

/**
 * Rotates a point of head space about the origin: yaw about the vertical axis, then pitch about
 * the horizontal one, then roll about the view axis.
 *
 * @example
 * rotate({ x: 0, y: 0, z: 1 }, { yaw: 90, pitch: 0, roll: 0 }); // ≈ { x: 1, y: 0, z: 0 }: nose to the image's right
 */
export function rotate(p: Vec3, o: Orientation): Vec3 {
  const cy = Math.cos(o.yaw * RAD);
  const sy = Math.sin(o.yaw * RAD);
  const x1 = p.x * cy + p.z * sy;
  const z1 = -p.x * sy + p.z * cy;
  const cp = Math.cos(o.pitch * RAD);
  const sp = Math.sin(o.pitch * RAD);
  const y2 = p.y * cp - z1 * sp;
  const z2 = p.y * sp + z1 * cp;
  const cr = Math.cos(o.roll * RAD);
  const sr = Math.sin(o.roll * RAD);
  return { x: x1 * cr - y2 * sr, y: x1 * sr + y2 * cr, z: z2 };
}

/**
 * Projects a point of camera space (Z > 0 in front of the camera) to output pixels.
 *
 * @example
 * project({ x: 10, y: 0, z: 100 }, { focal: 500, cx: 320, cy: 240 }); // { x: 370, y: 240 }
 */
export function project(p: Vec3, cam: Camera): { x: number; y: number } {
  if (!(p.z > 0)) throw new RangeError(`a point behind the camera cannot be projected (Z=${p.z})`);
  return { x: cam.cx + (cam.focal * p.x) / p.z, y: cam.cy + (cam.focal * p.y) / p.z };
}

/**
 * Where a point of head space lands in camera space: rotated about `pivot` (head space), then
 * placed with the head's origin at `origin` (camera space). Head z points towards the camera.
 *
 * @example
 * toCamera({ x: 0, y: 0, z: 50 }, frontal, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 400 }); // { x: 0, y: 0, z: 350 }
 */
export function toCamera(p: Vec3, o: Orientation, pivot: Vec3, origin: Vec3): Vec3 {
  const r = rotate({ x: p.x - pivot.x, y: p.y - pivot.y, z: p.z - pivot.z }, o);
  return { x: origin.x + r.x + pivot.x, y: origin.y + r.y + pivot.y, z: origin.z - r.z - pivot.z };
}

/** A textured triangle mesh: positions in head space, texture coordinates in texture pixels. */
export interface Mesh {
  positions: Vec3[];
  normals: Vec3[];
  uv: { u: number; v: number }[];
  triangles: number[];
  texture: RgbImage;
  /** Coverage per texture pixel (0–255): pixels under 128 are not part of the surface. */
  alpha?: Uint8Array;
}

/** One bump of the face relief: an anisotropic Gaussian in photo pixels, height in pixels. */
export interface Bump {
  x: number;
  y: number;
  sx: number;
  sy: number;
  h: number;
}

/** The head shape: an ellipsoid around the face in the photo, with a relief and a nose ridge. */
export interface HeadShape {
  /** The ellipsoid's centre in the photo, pixels. */
  cx: number;
  cy: number;
  /** Half width, half height and depth (front of the face from the centre plane), pixels. */
  a: number;
  b: number;
  c: number;
  /** The nose: from the bridge (between the eyes) to the tip, then down to the philtrum. */
  nose: { x: number; bridgeY: number; tipY: number; bridgeH: number; tipH: number; width: number };
  bumps: Bump[];
}

/**
 * Depth of the head's surface (head space z, towards the camera) under a photo pixel, or
 * undefined outside the head's outline.
 *
 * @example
 * surfaceDepth(shape, shape.cx, shape.cy); // shape.c plus the relief there
 */
export function surfaceDepth(s: HeadShape, x: number, y: number): number | undefined {
  const u = (x - s.cx) / s.a;
  const v = (y - s.cy) / s.b;
  const r2 = u * u + v * v;
  if (r2 > 1) return undefined;
  let z = s.c * Math.sqrt(1 - r2);
  // The relief fades towards the outline so the silhouette stays the ellipsoid's.
  const fade = Math.max(0, 1 - r2 * r2);
  let relief = 0;
  for (const b of s.bumps) {
    const dx = (x - b.x) / b.sx;
    const dy = (y - b.y) / b.sy;
    relief += b.h * Math.exp(-(dx * dx + dy * dy) / 2);
  }
  relief += noseHeight(s.nose, x, y);
  z += relief * fade;
  return z;
}

function noseHeight(n: HeadShape['nose'], x: number, y: number): number {
  let along: number;
  let t: number;
  if (y < n.bridgeY) {
    t = 0;
    along = n.bridgeH * Math.exp(-(((y - n.bridgeY) / 6) ** 2));
  } else if (y <= n.tipY) {
    t = (y - n.bridgeY) / (n.tipY - n.bridgeY);
    along = n.bridgeH + (n.tipH - n.bridgeH) * t ** 1.4;
  } else {
    t = 1;
    along = n.tipH * Math.exp(-(((y - n.tipY) / 5) ** 2));
  }
  const w = n.width * (0.6 + 0.4 * t);
  return along * Math.exp(-(((x - n.x) / w) ** 2) / 2);
}

/**
 * Builds the head's triangle mesh from the photo: a grid every `step` photo pixels over the
 * ellipse, vertices outside it pulled onto the outline (where the surface meets the centre plane),
 * the photo mapped from the front.
 *
 * @example
 * const mesh = headMesh(shape, photo, 2);
 */
export function headMesh(s: HeadShape, texture: RgbImage, step = 2, alpha?: Uint8Array): Mesh {
  const nx = Math.ceil((2 * s.a) / step) + 1;
  const ny = Math.ceil((2 * s.b) / step) + 1;
  const positions: Vec3[] = [];
  const uv: { u: number; v: number }[] = [];
  const inside: boolean[] = [];
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      let x = s.cx - s.a + i * step;
      let y = s.cy - s.b + j * step;
      let z = surfaceDepth(s, x, y);
      inside.push(z !== undefined);
      if (z === undefined) {
        const u = (x - s.cx) / s.a;
        const v = (y - s.cy) / s.b;
        const r = Math.hypot(u, v);
        x = s.cx + (s.a * u) / r;
        y = s.cy + (s.b * v) / r;
        z = 0;
      }
      positions.push({ x: x - s.cx, y: y - s.cy, z });
      uv.push({ u: x, v: y });
    }
  }
  const triangles: number[] = [];
  for (let j = 0; j + 1 < ny; j++) {
    for (let i = 0; i + 1 < nx; i++) {
      const k = j * nx + i;
      const quad = [k, k + 1, k + nx, k + nx + 1];
      if (!quad.some((q) => inside[q])) continue;
      triangles.push(k, k + 1, k + nx + 1, k, k + nx + 1, k + nx);
    }
  }
  const normals = positions.map((p, k) => {
    const i = k % nx;
    const j = Math.floor(k / nx);
    const at = (ii: number, jj: number) =>
      positions[Math.min(ny - 1, Math.max(0, jj)) * nx + Math.min(nx - 1, Math.max(0, ii))]!;
    const dx = sub(at(i + 1, j), at(i - 1, j));
    const dy = sub(at(i, j + 1), at(i, j - 1));
    let n = cross(dx, dy);
    // Grid x to the right and y down: the cross product points along −z; face it outwards.
    n = { x: -n.x, y: -n.y, z: -n.z };
    const len = Math.hypot(n.x, n.y, n.z);
    if (len < 1e-9 || !inside[k]) {
      const o = Math.hypot(p.x / s.a, p.y / s.b) || 1;
      return { x: p.x / s.a / o, y: p.y / s.b / o, z: 0 };
    }
    return { x: n.x / len, y: n.y / len, z: n.z / len };
  });
  return alpha
    ? { positions, normals, uv, triangles, texture, alpha }
    : { positions, normals, uv, triangles, texture };
}

const sub = (a: Vec3, b: Vec3): Vec3 => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z });
const cross = (a: Vec3, b: Vec3): Vec3 => ({
  x: a.y * b.z - a.z * b.y,
  y: a.z * b.x - a.x * b.z,
  z: a.x * b.y - a.y * b.x,
});

/**
 * Which photo pixels inside the head's ellipse belong to the head: everything except the
 * low-saturation pixels (grey wall, metal, black cloth) connected to the outside of the ellipse,
 * the way a flood fill would take them. Hair and skin are saturated; interior holes stay head.
 *
 * @example
 * const alpha = headMask(photo, shape, 28); // 255 on hair and skin, 0 elsewhere
 */
export function headMask(img: RgbImage, s: HeadShape, maxSaturation: number): Uint8Array {
  const { width: w, height: h, rgb } = img;
  const outside = new Uint8Array(w * h);
  const stack: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (((x - s.cx) / s.a) ** 2 + ((y - s.cy) / s.b) ** 2 > 1) {
        outside[y * w + x] = 1;
        stack.push(y * w + x);
      }
    }
  }
  const grey = (i: number) =>
    Math.max(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!) -
      Math.min(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!) <
    maxSaturation;
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % w;
    const y = (i - x) / w;
    const next = [
      x > 0 ? i - 1 : -1,
      x < w - 1 ? i + 1 : -1,
      y > 0 ? i - w : -1,
      y < h - 1 ? i + w : -1,
    ];
    for (const j of next) {
      if (j >= 0 && !outside[j] && grey(j)) {
        outside[j] = 1;
        stack.push(j);
      }
    }
  }
  return outside.map((o) => (o ? 0 : 255));
}

/**
 * A copy of the photo with the masked region (grown by `grow` pixels) filled row by row from the
 * pixels at its edge: the backdrop behind a head that turns, so the photo's own head never shows
 * behind it.
 *
 * @example
 * const backdrop = fillMasked(photo, headMask(photo, shape, 28), 3);
 */
export function fillMasked(img: RgbImage, mask: Uint8Array, grow: number): RgbImage {
  const { width: w, height: h } = img;
  const rgb = new Uint8Array(img.rgb);
  for (let y = 0; y < h; y++) {
    let x0 = w;
    let x1 = -1;
    for (let yy = Math.max(0, y - grow); yy <= Math.min(h - 1, y + grow); yy++) {
      for (let x = 0; x < w; x++) {
        if (mask[yy * w + x]! >= 128) {
          x0 = Math.min(x0, x);
          x1 = Math.max(x1, x);
        }
      }
    }
    if (x1 < 0) continue;
    x0 = Math.max(0, x0 - grow - 1);
    x1 = Math.min(w - 1, x1 + grow + 1);
    for (let x = x0 + 1; x < x1; x++) {
      const t = (x - x0) / (x1 - x0);
      for (let c = 0; c < 3; c++) {
        const l = img.rgb[(y * w + x0) * 3 + c]!;
        const r = img.rgb[(y * w + x1) * 3 + c]!;
        rgb[(y * w + x) * 3 + c] = Math.round(l + (r - l) * t);
      }
    }
  }
  return { width: w, height: h, rgb };
}

/** A mesh placed for one frame: each vertex in camera space, with a brightness factor. */
export interface PlacedMesh {
  mesh: Mesh;
  camera: Vec3[];
  shade: number[];
}

/**
 * Places a mesh for one frame and shades it: light from the camera, relative to the frontal
 * pose, because the photo already holds the frontal light. A surface turned away darkens.
 *
 * @example
 * placeMesh(mesh, { yaw: 30, pitch: 0, roll: 0 }, pivot, { x: 0, y: 0, z: 400 });
 */
export function placeMesh(m: Mesh, o: Orientation, pivot: Vec3, origin: Vec3): PlacedMesh {
  const camera = m.positions.map((p) => toCamera(p, o, pivot, origin));
  const lit = (nz: number) => 0.5 + 0.5 * Math.max(0, nz);
  const shade = m.normals.map((n) => {
    const r = rotate(n, o);
    return Math.min(1.25, Math.max(0.45, lit(r.z) / Math.max(0.3, lit(n.z))));
  });
  return { mesh: m, camera, shade };
}

/**
 * Draws placed meshes into an RGB frame with a depth buffer, perspective-correct texture
 * coordinates and bilinear sampling. Pixels no mesh covers get `background`.
 *
 * @example
 * const frame = render([head, backdrop], { focal: 554, cx: 320, cy: 240 }, 640, 480, [90, 100, 112]);
 */
export function render(
  meshes: readonly PlacedMesh[],
  cam: Camera,
  width: number,
  height: number,
  background: readonly [number, number, number],
): RgbImage {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    rgb[i * 3] = background[0];
    rgb[i * 3 + 1] = background[1];
    rgb[i * 3 + 2] = background[2];
  }
  const depth = new Float64Array(width * height);
  for (const pm of meshes) drawMesh(pm, cam, width, height, rgb, depth);
  return { width, height, rgb };
}

function drawMesh(
  pm: PlacedMesh,
  cam: Camera,
  width: number,
  height: number,
  rgb: Uint8Array,
  depth: Float64Array,
): void {
  const { mesh } = pm;
  const n = pm.camera.length;
  const sx = new Float64Array(n);
  const sy = new Float64Array(n);
  const iz = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const p = pm.camera[k]!;
    const s = project(p, cam);
    sx[k] = s.x;
    sy[k] = s.y;
    iz[k] = 1 / p.z;
  }
  const tex = mesh.texture;
  const t = mesh.triangles;
  for (let q = 0; q + 2 < t.length; q += 3) {
    const a = t[q]!;
    const b = t[q + 1]!;
    const c = t[q + 2]!;
    const ax = sx[a]!;
    const ay = sy[a]!;
    const bx = sx[b]!;
    const by = sy[b]!;
    const cx = sx[c]!;
    const cy = sy[c]!;
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (Math.abs(area) < 1e-9) continue;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(height - 1, Math.ceil(Math.max(ay, by, cy)));
    if (x0 > x1 || y0 > y1) continue;
    const wa = iz[a]!;
    const wb = iz[b]!;
    const wc = iz[c]!;
    const ua = mesh.uv[a]!;
    const ub = mesh.uv[b]!;
    const uc = mesh.uv[c]!;
    const la = pm.shade[a]!;
    const lb = pm.shade[b]!;
    const lc = pm.shade[c]!;
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        // Barycentric weights; both windings are drawn (no back-face culling: the depth test
        // keeps the nearest surface).
        const l1 = ((px - ax) * (cy - ay) - (py - ay) * (cx - ax)) / area;
        const l2 = ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / area;
        const l0 = 1 - l1 - l2;
        if (l0 < -1e-9 || l1 < -1e-9 || l2 < -1e-9) continue;
        const w = l0 * wa + l1 * wb + l2 * wc;
        const i = y * width + x;
        if (w <= depth[i]!) continue;
        const u = (l0 * wa * ua.u + l1 * wb * ub.u + l2 * wc * uc.u) / w;
        const v = (l0 * wa * ua.v + l1 * wb * ub.v + l2 * wc * uc.v) / w;
        // A soft edge: partly covered pixels blend over what is behind (drawn earlier).
        const cover = mesh.alpha ? coverage(mesh.alpha, tex.width, tex.height, u, v) : 1;
        if (cover <= 0) continue;
        if (cover >= 0.5) depth[i] = w;
        const shade = (l0 * wa * la + l1 * wb * lb + l2 * wc * lc) / w;
        sample(tex, u, v, shade, rgb, i * 3, cover);
      }
    }
  }
}

function coverage(alpha: Uint8Array, w: number, h: number, u: number, v: number): number {
  const x = Math.min(w - 1.001, Math.max(0, u - 0.5));
  const y = Math.min(h - 1.001, Math.max(0, v - 0.5));
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * w + x0;
  const top = alpha[i]! * (1 - fx) + alpha[i + 1]! * fx;
  const bottom = alpha[i + w]! * (1 - fx) + alpha[i + w + 1]! * fx;
  // Sharpened so the edge is about one texture pixel wide.
  return Math.min(1, Math.max(0, ((top * (1 - fy) + bottom * fy) / 255 - 0.5) * 2 + 0.5));
}

function sample(
  tex: RgbImage,
  u: number,
  v: number,
  shade: number,
  out: Uint8Array,
  o: number,
  cover: number,
): void {
  const x = Math.min(tex.width - 1.001, Math.max(0, u - 0.5));
  const y = Math.min(tex.height - 1.001, Math.max(0, v - 0.5));
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const i00 = (y0 * tex.width + x0) * 3;
  const i10 = i00 + 3;
  const i01 = i00 + tex.width * 3;
  const i11 = i01 + 3;
  for (let c = 0; c < 3; c++) {
    const top = tex.rgb[i00 + c]! * (1 - fx) + tex.rgb[i10 + c]! * fx;
    const bottom = tex.rgb[i01 + c]! * (1 - fx) + tex.rgb[i11 + c]! * fx;
    const value = Math.min(255, (top * (1 - fy) + bottom * fy) * shade);
    out[o + c] = Math.round(cover >= 1 ? value : value * cover + out[o + c]! * (1 - cover));
  }
}

/**
 * A flat textured rectangle in head space (z constant), split into a grid of quads so that the
 * perspective stays right when it moves: the backdrop behind the head. `margin` texture pixels
 * are added on every side, filled with the texture's border.
 *
 * @example
 * const wall = planeMesh(backdrop, -225, -108, 1.2, -40);
 */
export function planeMesh(
  texture: RgbImage,
  left: number,
  top: number,
  scale: number,
  z: number,
  margin = 0,
  cells = 8,
): Mesh {
  const positions: Vec3[] = [];
  const uv: { u: number; v: number }[] = [];
  for (let j = 0; j <= cells; j++) {
    for (let i = 0; i <= cells; i++) {
      // Beyond the texture's edge its border pixels repeat (sampling clamps).
      const u = -margin + (i / cells) * (texture.width + 2 * margin);
      const v = -margin + (j / cells) * (texture.height + 2 * margin);
      positions.push({ x: left + u * scale, y: top + v * scale, z });
      uv.push({ u, v });
    }
  }
  const triangles: number[] = [];
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const k = j * (cells + 1) + i;
      triangles.push(k, k + 1, k + cells + 2, k, k + cells + 2, k + cells + 1);
    }
  }
  return {
    positions,
    normals: positions.map(() => ({ x: 0, y: 0, z: 1 })),
    uv,
    triangles,
    texture,
  };
}
