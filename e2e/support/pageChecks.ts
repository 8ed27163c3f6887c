import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const SHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../screenshots');

/** Phone first (an iPhone 14-sized viewport), then a desktop window. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/**
 * Saves the current screen at phone and desktop sizes under e2e/screenshots/ (git-ignored) so a
 * person can look at every screen, then puts the viewport back.
 *
 * @example
 * await shoot(page, 'conversation');
 */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const before = page.viewportSize();
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: join(SHOTS, `${name}-${size}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/**
 * Runs axe on the page and fails on any serious or critical violation, naming each.
 *
 * @example
 * await expectAccessible(page, 'end screen');
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, `axe on ${screen}`).toEqual([]);
}

/**
 * Both: screenshots at the two sizes and the axe check, for one screen.
 *
 * @example
 * await checkScreen(page, 'permissions');
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await shoot(page, name);
  await expectAccessible(page, name);
}

/** How long a camera and the face detector may take to be ready on a loaded machine. */
export const CAMERA_READY_MS = 120_000;

/**
 * Waits until the liveness capture can run: the camera live and the face detector loaded
 * (`data-detector="ready"`; its wasm and model compile slowly on a loaded machine). The node's
 * time counts from the first frame the detector sees, so the wait takes nothing from the node.
 *
 * @example
 * await expectLivenessReady(page);
 */
export async function expectLivenessReady(page: Page): Promise<void> {
  const capture = page.getByTestId('liveness-capture');
  await expect(capture).toHaveAttribute('data-camera', 'live', { timeout: CAMERA_READY_MS });
  await expect(capture).toHaveAttribute('data-detector', 'ready', { timeout: CAMERA_READY_MS });
}

/**
 * Collects every request of the page's context that goes anywhere but `origin` (data: and blob:
 * URLs aside): the page talks to no origin but ours.
 *
 * @example
 * const foreign = watchOrigins(page, idv.url);
 * // … run the flow …
 * expect(foreign).toEqual([]);
 */
export function watchOrigins(page: Page, origin: string): string[] {
  const foreign: string[] = [];
  page.context().on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.origin !== origin) foreign.push(r.url());
  });
  return foreign;
}
