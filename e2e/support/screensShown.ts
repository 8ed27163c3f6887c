import type { Page } from '@playwright/test';

/**
 * Records, from the page's first script on, each node whose screen the page shows (the
 * `data-node-id` of `<main id="step">`, in order, each once per showing) and every warning the page
 * logs that its flow machine did not follow the server (main.tsx's `flowDisagreed`).
 *
 * @example
 * const watch = await watchScreens(page);
 * // … the run …
 * expect(await watch.screens()).toEqual(['permissions', 'welcome']);
 * expect(watch.disagreements).toEqual([]);
 */
export async function watchScreens(page: Page) {
  const disagreements: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' && message.text().includes('flow machine'))
      disagreements.push(message.text());
  });
  await page.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { __screensShown: string[] }).__screensShown = shown;
    new MutationObserver(() => {
      const id = document.querySelector('main#step')?.getAttribute('data-node-id');
      if (id && shown[shown.length - 1] !== id) shown.push(id);
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-node-id'],
    });
  });
  return {
    disagreements,
    screens: () =>
      page.evaluate(() => (window as unknown as { __screensShown: string[] }).__screensShown),
  };
}
