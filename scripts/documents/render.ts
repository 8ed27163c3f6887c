/**
 * Flat renders of documents in headless Chromium (the page's fonts are Debian's OCR-B, its Sharp
 * cut and a sans serif, unhinted: `--font-render-hinting=none`), screenshotted to RGBA at
 * `PX_PER_MM`. Licence barcodes are drawn by bwip-js (PDF417, error correction level 5, as AAMVA
 * recommends). The second print rendering is drawn at 150 dpi with the Sharp cut and a heavier
 * stroke, its ink spread and its colours halftoned (`secondPrint`), then scaled to `PX_PER_MM`.
 */
import { existsSync, readFileSync } from 'node:fs';
import bwipjs from 'bwip-js/node';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { cardHtml, PX_PER_MM, SIZES_MM, type Assets } from './card-html';
import { chromiumExecutable } from '../lib/chromium';
import { OCRB_FONT, OCRB_SECOND_FONT } from './font';
import type { Rgba } from './photo';
import type { Specimen } from './specimens';

export interface Renderer {
  render(s: Specimen, side: 'front' | 'back'): Promise<Rgba>;
  close(): Promise<void>;
}

/** The second rendering's resolution: 150 dpi. */
const SECOND_PX_PER_MM = 6;

/**
 * The licence's PDF417 as a PNG data URL: bwip-js, 13 columns, error correction level 5, one
 * pixel a module (the page scales it without smoothing).
 *
 * @example
 * await barcodeDataUrl(composeAamva(input));
 */
export async function barcodeDataUrl(text: string): Promise<string> {
  const png = await bwipjs.toBuffer({
    bcid: 'pdf417',
    text,
    binarytext: true,
    columns: 13,
    eclevel: 5,
    scale: 1,
    rowmult: 3,
    padding: 4,
    backgroundcolor: 'FFFFFF',
  } as Parameters<typeof bwipjs.toBuffer>[0]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** Separable [1 2 1] / 4 blur of one channel plane, in place. */
function soften(plane: Float32Array, w: number, h: number): void {
  const tmp = new Float32Array(plane.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const a = plane[y * w + Math.max(0, x - 1)]!;
      const b = plane[y * w + x]!;
      const c = plane[y * w + Math.min(w - 1, x + 1)]!;
      tmp[y * w + x] = 0.25 * a + 0.5 * b + 0.25 * c;
    }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const a = tmp[Math.max(0, y - 1) * w + x]!;
      const b = tmp[y * w + x]!;
      const c = tmp[Math.min(h - 1, y + 1) * w + x]!;
      plane[y * w + x] = 0.25 * a + 0.5 * b + 0.25 * c;
    }
}

/**
 * The press's resolution, in output pixels: the screen is set on a grid this many times finer
 * than the page's `PX_PER_MM` (20 px/mm, about 500 dpi), so a dot of the 0.37 mm screen spans
 * some 7 device pixels and grows in fine steps with the tone, as a plate's dot does. (Set on the
 * 150 dpi raster itself, a cell held 5 pixels: every tone fell to one of five or six dot
 * patterns and a portrait came out posterised, its eyes and mouth lost in the screen.)
 */
const PRESS_SCALE = 2;

/** The screen's period: 0.37 mm (about 68 lines an inch), at 45°. */
const SCREEN_MM = 0.37;

/**
 * The second print rendering of a 150 dpi screenshot, as a press prints it: the low-resolution
 * render enlarged to the press's grid (`PRESS_SCALE`), every colour halftoned there with a 45°
 * dot screen of 0.37 mm (solid ink stays solid: text is printed, not screened), the ink spread
 * (a blur that darkens: thin strokes grow by about 0.1 mm), then averaged down to `width` ×
 * `height`, the page's `PX_PER_MM`.
 *
 * @example
 * const flat = secondPrint(lowResRgba, 1250, 880);
 */
export function secondPrint(src: Rgba, width: number, height: number): Rgba {
  const { width: sw, height: sh, data } = src;
  const w = width * PRESS_SCALE;
  const h = height * PRESS_SCALE;
  const period = (SCREEN_MM * w) / (sw / SECOND_PX_PER_MM);
  const planes = [0, 1, 2].map(() => new Float32Array(w * h));
  const fx = sw / w;
  const fy = sh / h;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(sh - 1.001, Math.max(0, (y + 0.5) * fy - 0.5));
    const y0 = Math.floor(sy);
    const ay = sy - y0;
    for (let x = 0; x < w; x++) {
      const sx = Math.min(sw - 1.001, Math.max(0, (x + 0.5) * fx - 0.5));
      const x0 = Math.floor(sx);
      const ax = sx - x0;
      const u = (x + y) / Math.SQRT2;
      const v = (x - y) / Math.SQRT2;
      const screen =
        (Math.cos((2 * Math.PI * u) / period) * Math.cos((2 * Math.PI * v) / period) + 1) / 2;
      const i = (y0 * sw + x0) * 4;
      const j = i + sw * 4;
      for (let c = 0; c < 3; c++) {
        const top = data[i + c]! * (1 - ax) + data[i + 4 + c]! * ax;
        const bottom = data[j + c]! * (1 - ax) + data[j + 4 + c]! * ax;
        const ink = 1 - (top * (1 - ay) + bottom * ay) / 255;
        // Solid (text) and empty stay so; the tones between become dots.
        const dot = ink > 0.8 ? 1 : ink < 0.03 ? 0 : ink > screen * 0.9 + 0.05 ? 1 : 0;
        planes[c]![y * w + x] = dot;
      }
    }
  }
  // Ink spread: about 0.1 mm of blur (two passes at the press's 0.05 mm), darkened.
  for (const p of planes) {
    soften(p, w, h);
    soften(p, w, h);
    for (let i = 0; i < p.length; i++) p[i] = Math.min(1, p[i]! * 1.35);
  }
  const out = new Uint8Array(width * height * 4);
  const n = PRESS_SCALE * PRESS_SCALE;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        const p = planes[c]!;
        let ink = 0;
        for (let dy = 0; dy < PRESS_SCALE; dy++)
          for (let dx = 0; dx < PRESS_SCALE; dx++)
            ink += p[(y * PRESS_SCALE + dy) * w + x * PRESS_SCALE + dx]!;
        // Paper white and ink near-black: the page is printed, not lit.
        out[(y * width + x) * 4 + c] = Math.round(250 - (235 * ink) / n);
      }
      out[(y * width + x) * 4 + 3] = 255;
    }
  }
  return { width, height, data: out };
}

/**
 * Starts Chromium once for many renders.
 *
 * @example
 * const r = await startRenderer('.tmp/fixtures/astronaut.png', '.tmp/fixtures/coffee.png');
 * const flat = await r.render(specimen(1, 'passport', 'valid', 'clean'), 'front');
 */
export async function startRenderer(facePng: string, noFacePng?: string): Promise<Renderer> {
  for (const font of [OCRB_FONT, OCRB_SECOND_FONT])
    if (!existsSync(font)) throw new Error(`${font} is missing: apt-get install fonts-ocr-b`);
  if (!existsSync(facePng)) throw new Error(`${facePng} is missing: run npm run fixtures`);
  const dataUrl = (file: string, type: string) =>
    `data:${type};base64,${readFileSync(file).toString('base64')}`;
  const other = noFacePng ?? facePng.replace(/[^/]+$/, 'coffee.png');
  if (!existsSync(other)) throw new Error(`${other} is missing: run npm run fixtures`);
  const assets: Assets = {
    fontUrl: dataUrl(OCRB_FONT, 'font/otf'),
    secondFontUrl: dataUrl(OCRB_SECOND_FONT, 'font/otf'),
    faceUrl: dataUrl(facePng, 'image/png'),
    noFaceUrl: dataUrl(other, 'image/png'),
  };
  const browser: Browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: [
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--font-render-hinting=none',
    ],
  });
  const context = await browser.newContext({ deviceScaleFactor: 1 });
  const page: Page = await context.newPage();
  return {
    async render(s, side) {
      const size = SIZES_MM[s.kind];
      const pxPerMm = s.print === 'second' ? SECOND_PX_PER_MM : PX_PER_MM;
      const w = Math.round(size.w * pxPerMm);
      const h = Math.round(size.h * pxPerMm);
      // CSS mm are 96/25.4 px; zoom makes one mm pxPerMm pixels.
      const zoom = (pxPerMm * 25.4) / 96;
      const barcodeUrl = s.barcode && side === 'back' ? await barcodeDataUrl(s.barcode) : undefined;
      await page.setViewportSize({ width: w, height: h });
      await page.setContent(
        cardHtml(s, side, { ...assets, ...(barcodeUrl ? { barcodeUrl } : {}) }).replace(
          '<body>',
          `<body style="zoom:${zoom}">`,
        ),
      );
      await page.evaluate(async () => {
        await document.fonts.ready;
        await Promise.all(
          Array.from(document.images).map((img) =>
            img.complete ? null : new Promise((ok) => (img.onload = ok)),
          ),
        );
        // OCR-B's advance is not exactly 0.6 em: size each line to 2.54 mm a character.
        for (const el of Array.from(document.querySelectorAll<HTMLElement>('.l'))) {
          const want = el.getBoundingClientRect().width;
          const probe = document.createElement('span');
          probe.textContent = el.textContent;
          el.textContent = '';
          el.appendChild(probe);
          const got = probe.getBoundingClientRect().width;
          const fs = parseFloat(getComputedStyle(el).fontSize);
          el.style.fontSize = `${(fs * want) / got}px`;
        }
      });
      const png = PNG.sync.read(
        await page.screenshot({ clip: { x: 0, y: 0, width: w, height: h } }),
      );
      const flat = { width: png.width, height: png.height, data: new Uint8Array(png.data) };
      if (s.print !== 'second') return flat;
      return secondPrint(flat, Math.round(size.w * PX_PER_MM), Math.round(size.h * PX_PER_MM));
    },
    async close() {
      await browser.close();
    },
  };
}
