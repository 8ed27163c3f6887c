import { expect, test } from '@playwright/test';
import { KYC_FLOW } from './support/flows';
import { startIdv, type IdvServer } from './support/idvServer';

// The top bar (language, voice, transcript, leave) stays one line on a 360 px wide phone in every
// language (issue 22: the German one wrapped), and nothing in it sticks out of the page.
const LANGS = ['en', 'fr', 'de', 'ru', 'es', 'id', 'no', 'pt', 'it'];

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

test('the top bar is one line at 360 px in all nine languages', async ({ browser }) => {
  for (const lang of LANGS) {
    const context = await browser.newContext({
      locale: lang,
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 1,
    });
    try {
      const page = await context.newPage();
      const { clientSecret } = await idv.createSession({ flow: KYC_FLOW, langs: LANGS });
      await page.goto(clientSecret.url);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      const bar = page.locator('header.topbar');
      // Every control the bar holds in a session: the language, the voice, the transcript, leave.
      await expect(bar.getByRole('combobox')).toBeVisible();
      await expect(bar.getByRole('button').last()).toBeVisible();
      const layout = await bar.evaluate((header) => {
        const items = [...header.querySelectorAll('button, select, a')].filter(
          (el) => (el as HTMLElement).offsetParent !== null,
        );
        const boxes = items.map((el) => el.getBoundingClientRect());
        // Controls side by side, none over its neighbour, none with its words cut off inside.
        const sorted = [...boxes].sort((a, b) => a.left - b.left);
        const overlaps = sorted.filter((b, i) => i > 0 && b.left < sorted[i - 1]!.right - 1);
        const clipped = items
          .filter((el) => el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.textContent);
        return {
          overlaps: overlaps.length,
          clipped,
          tops: boxes.map((b) => Math.round(b.top + b.height / 2)),
          right: Math.max(...boxes.map((b) => b.right)),
          scroll: document.documentElement.scrollWidth,
          height: header.getBoundingClientRect().height,
          tallest: Math.max(...boxes.map((b) => b.height)),
        };
      });
      // One line: every control on the same centre line, the bar no taller than its tallest
      // control and its padding, and nothing past the right edge.
      const centre = layout.tops[0] ?? 0;
      expect(
        layout.tops.every((t) => Math.abs(t - centre) <= 2),
        `${lang}: ${JSON.stringify(layout)}`,
      ).toBe(true);
      expect([layout.overlaps, layout.clipped], `${lang} overlaps, clipped`).toEqual([0, []]);
      expect(layout.height, `${lang} bar height`).toBeLessThanOrEqual(layout.tallest + 12);
      expect(layout.right, `${lang} right edge`).toBeLessThanOrEqual(360);
      expect(layout.scroll, `${lang} page width`).toBeLessThanOrEqual(360);
    } finally {
      await context.close();
    }
  }
});
