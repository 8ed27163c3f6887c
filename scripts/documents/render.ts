/**
 * Flat renders of documents in headless Chromium (the page's fonts are Debian's OCR-B and a sans
 * serif), screenshotted to RGBA at `PX_PER_MM`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { cardHtml, PX_PER_MM, SIZES_MM } from './card-html';
import { OCRB_FONT } from './font';
import type { Rgba } from './photo';
import type { Specimen } from './specimens';

export interface Renderer {
  render(s: Specimen, side: 'front' | 'back'): Promise<Rgba>;
  close(): Promise<void>;
}

/**
 * Starts Chromium once for many renders.
 *
 * @example
 * const r = await startRenderer('.tmp/fixtures/astronaut.png');
 * const flat = await r.render(specimen(1, 'passport', 'valid', 'clean'), 'front');
 */
export async function startRenderer(facePng: string): Promise<Renderer> {
  if (!existsSync(OCRB_FONT))
    throw new Error(`${OCRB_FONT} is missing: apt-get install fonts-ocr-b`);
  if (!existsSync(facePng)) throw new Error(`${facePng} is missing: run npm run fixtures`);
  const fontUrl = `data:font/otf;base64,${readFileSync(OCRB_FONT).toString('base64')}`;
  const faceUrl = `data:image/png;base64,${readFileSync(facePng).toString('base64')}`;
  const browser: Browser = await chromium.launch({
    executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
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
      const w = Math.round(size.w * PX_PER_MM);
      const h = Math.round(size.h * PX_PER_MM);
      // CSS mm are 96/25.4 px; zoom makes one mm PX_PER_MM pixels.
      const zoom = (PX_PER_MM * 25.4) / 96;
      await page.setViewportSize({ width: w, height: h });
      await page.setContent(
        cardHtml(s, side, fontUrl, faceUrl).replace('<body>', `<body style="zoom:${zoom}">`),
      );
      await page.evaluate(async () => {
        await document.fonts.ready;
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
      return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
    },
    async close() {
      await browser.close();
    },
  };
}
