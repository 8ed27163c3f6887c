/**
 * The measured face set: package-shipped photos of four people, each in several captures (other
 * poses rendered in 3D, mirrored, rotated, darker, smaller, heavily compressed, another moment of a
 * video). Same-person pairs are captures of one person; different-person pairs join two people.
 *
 * Sources (only package-shipped material):
 * - Debian `python3-skimage` via `npm run fixtures`: `astronaut.png` (Eileen Collins, NASA,
 *   public domain) and `camera.png` (the "cameraman" test image).
 * - Debian `opencv-doc` (`apt-get download` + `dpkg --fsys-tarfile`, kept in `.tmp/faces/`):
 *   `messi5.jpg` (a footballer) and `basketball1.png` / `basketball2.png` (two frames of a player
 *   from OpenCV's optical-flow sample). Debian ships them under OpenCV's licence; its copyright
 *   file removes the non-free Lena images and keeps these.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeImage } from '../../src/server/face-analysis/image';
import { headScene } from '../fixtures/head-scene';
import type { RgbImage } from '../lib/head-render';
import jpeg from 'jpeg-js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURE_DIR = join(root, '.tmp/fixtures');
export const OPENCV_DIR = join(root, '.tmp/faces');
export const OPENCV_FILES = ['messi5.jpg', 'basketball1.png', 'basketball2.png'] as const;

/** One image of one person, as JPEG bytes. */
export interface Capture {
  person: string;
  /** How this capture differs from the person's first one. */
  variant: string;
  jpeg: Uint8Array;
}

/**
 * Makes sure OpenCV's sample photos are in `.tmp/faces/`, downloading Debian's `opencv-doc`
 * once (about 96 MB) and unpacking only those files. Returns false when that is not possible.
 *
 * @example
 * if (!ensureOpencvImages()) console.log('only the skimage people are measured');
 */
export function ensureOpencvImages(dir = OPENCV_DIR): boolean {
  mkdirSync(dir, { recursive: true });
  if (OPENCV_FILES.every((f) => existsSync(join(dir, f)))) return true;
  const tmp = mkdtempSync(join(tmpdir(), 'opencv-doc-'));
  try {
    execFileSync('apt-get', ['download', 'opencv-doc'], { cwd: tmp, stdio: 'ignore' });
    const deb = readdirSync(tmp).find((f) => f.endsWith('.deb'));
    if (!deb) return false;
    const data = './usr/share/doc/opencv-doc/examples/data/';
    const tar = execFileSync('dpkg', ['--fsys-tarfile', deb], {
      cwd: tmp,
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', tmp, ...OPENCV_FILES.map((f) => data + f)], { input: tar });
    for (const f of OPENCV_FILES) copyFileSync(join(tmp, data, f), join(dir, f));
    return true;
  } catch {
    return false;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const read = (file: string): RgbImage => decodeImage(readFileSync(file));

/**
 * JPEG bytes of an RGB image.
 *
 * @example
 * toJpeg(img, 90).length; // bytes
 */
export function toJpeg(img: RgbImage, quality = 92): Uint8Array {
  const data = Buffer.alloc(img.width * img.height * 4, 255);
  for (let i = 0; i < img.width * img.height; i++) {
    data[i * 4] = img.rgb[i * 3]!;
    data[i * 4 + 1] = img.rgb[i * 3 + 1]!;
    data[i * 4 + 2] = img.rgb[i * 3 + 2]!;
  }
  return jpeg.encode({ data, width: img.width, height: img.height }, quality).data;
}

function mapPixels(img: RgbImage, f: (v: number) => number): RgbImage {
  const rgb = new Uint8Array(img.rgb.length);
  for (let i = 0; i < rgb.length; i++)
    rgb[i] = Math.max(0, Math.min(255, Math.round(f(img.rgb[i]!))));
  return { ...img, rgb };
}

function mirror(img: RgbImage): RgbImage {
  const rgb = new Uint8Array(img.rgb.length);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const s = (y * img.width + x) * 3;
      const d = (y * img.width + (img.width - 1 - x)) * 3;
      rgb[d] = img.rgb[s]!;
      rgb[d + 1] = img.rgb[s + 1]!;
      rgb[d + 2] = img.rgb[s + 2]!;
    }
  }
  return { ...img, rgb };
}

/** Box-filtered resize by `factor` (< 1 shrinks), as a camera further away would see. */
function scale(img: RgbImage, factor: number): RgbImage {
  const width = Math.max(1, Math.round(img.width * factor));
  const height = Math.max(1, Math.round(img.height * factor));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x / factor);
      const y0 = Math.floor(y / factor);
      const x1 = Math.max(x0 + 1, Math.min(img.width, Math.floor((x + 1) / factor)));
      const y1 = Math.max(y0 + 1, Math.min(img.height, Math.floor((y + 1) / factor)));
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        let n = 0;
        for (let yy = y0; yy < y1 && yy < img.height; yy++) {
          for (let xx = x0; xx < x1 && xx < img.width; xx++) {
            sum += img.rgb[(yy * img.width + xx) * 3 + c]!;
            n++;
          }
        }
        rgb[(y * width + x) * 3 + c] = n ? Math.round(sum / n) : 0;
      }
    }
  }
  return { width, height, rgb };
}

/** The usual photographic changes of one capture. */
function photoVariants(person: string, img: RgbImage): Capture[] {
  return [
    { person, variant: 'original', jpeg: toJpeg(img) },
    { person, variant: 'mirrored', jpeg: toJpeg(mirror(img)) },
    { person, variant: 'darker (×0.55)', jpeg: toJpeg(mapPixels(img, (v) => v * 0.55)) },
    {
      person,
      variant: 'brighter, less contrast',
      jpeg: toJpeg(mapPixels(img, (v) => 60 + v * 0.8)),
    },
    { person, variant: 'JPEG quality 30', jpeg: toJpeg(img, 30) },
  ];
}

/**
 * Every capture of the set, person by person. People whose source images are missing are left
 * out (see `ensureOpencvImages` and `npm run fixtures`).
 *
 * @example
 * const captures = faceSet();
 * new Set(captures.map((c) => c.person)).size; // 4 with every source present
 */
export function faceSet(): Capture[] {
  const out: Capture[] = [];
  const fx = (f: string) => join(FIXTURE_DIR, f);
  const cv = (f: string) => join(OPENCV_DIR, f);
  if (existsSync(fx('astronaut.png'))) {
    const photo = read(fx('astronaut.png'));
    const p = 'astronaut';
    out.push(...photoVariants(p, photo));
    out.push({ person: p, variant: 'smaller (×0.5)', jpeg: toJpeg(scale(photo, 0.5)) });
    if (existsSync(fx('astronaut-rotated.png'))) {
      out.push({
        person: p,
        variant: 'rotated 12°, cropped',
        jpeg: toJpeg(read(fx('astronaut-rotated.png'))),
      });
    }
    const draw = headScene(photo);
    const poses: [string, number, number][] = [
      ['3D head, frontal', 0, 0],
      ['3D head, turned 15° left', 15, 0],
      ['3D head, turned 25° right', -25, 0],
      ['3D head, looking up 15°', 0, 15],
      ['3D head, turned 10°, down 8°', 10, -8],
    ];
    for (const [variant, yaw, pitch] of poses) {
      const frame = draw({ orientation: { yaw, pitch, roll: 0 }, closer: 1, dx: 0, dy: 0 });
      out.push({ person: p, variant, jpeg: toJpeg(frame, 85) });
    }
  }
  if (existsSync(fx('camera.png'))) {
    const photo = read(fx('camera.png'));
    out.push(...photoVariants('cameraman', photo));
    out.push({ person: 'cameraman', variant: 'smaller (×0.6)', jpeg: toJpeg(scale(photo, 0.6)) });
  }
  if (existsSync(cv('messi5.jpg'))) {
    out.push(...photoVariants('footballer', read(cv('messi5.jpg'))));
  }
  if (existsSync(cv('basketball1.png')) && existsSync(cv('basketball2.png'))) {
    const a = read(cv('basketball1.png'));
    out.push(...photoVariants('basketball player', a));
    out.push({
      person: 'basketball player',
      variant: 'another video frame',
      jpeg: toJpeg(read(cv('basketball2.png'))),
    });
  }
  return out;
}
