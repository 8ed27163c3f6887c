import type { Page } from '@playwright/test';
import { currentNode, outcomeButton } from './selectors';

/** One step of a path: the outcome to choose, optionally with the node expected to ask for it. */
export type OutcomeStep = string | { node: string; outcome: string };

export interface DriveOptions {
  /** The outcomes to choose, in order, one per node the session reaches. */
  path: readonly OutcomeStep[];
  /** The hosted page's address (`clientSecret.url`); without it, the page already open. */
  url?: string;
  /** How long each step may take to appear and to be taken (default 30 s). */
  stepTimeoutMs?: number;
}

/** A step taken: the node it was chosen on, the outcome, and the node it led to (null: none). */
export interface StepTaken {
  node: string | null;
  outcome: string;
  target: string | null;
}

const ARROW = /(\S+) → (\S+)$/;

/**
 * Drives a test-mode session (made with an `sk_test_` key) along a path of outcomes through the
 * tester's panel of the hosted page: for each step it waits for the panel to offer the outcome
 * (on the named node, when one is given), chooses it, and waits until the page has moved on. It
 * uses only roles and accessible names (see `testPanel`, `outcomeButton`), so a restyled page does
 * not break it. Resolves with the steps taken; rejects naming the step that could not be taken
 * and what the page showed.
 *
 * @example
 * const { clientSecret } = await idv.sessions.create({ flow });
 * const steps = await driveTestSession(page, {
 *   url: clientSecret.url,
 *   path: ['permissionsGranted', { node: 'otp', outcome: 'verified' }],
 * });
 * // [{ node: 'perm', outcome: 'permissionsGranted', target: 'otp' }, { node: 'otp', outcome: 'verified', target: 'done' }]
 */
export async function driveTestSession(page: Page, options: DriveOptions): Promise<StepTaken[]> {
  const timeout = options.stepTimeoutMs ?? 30_000;
  if (options.url) await page.goto(options.url);
  const taken: StepTaken[] = [];
  for (const [i, step] of options.path.entries()) {
    const { node, outcome } = typeof step === 'string' ? { node: null, outcome: step } : step;
    const where = `step ${i + 1} (${node ? `${node}: ` : ''}${outcome})`;
    const button = outcomeButton(page, outcome);
    try {
      if (node) await currentNode(page).getByText(node, { exact: true }).waitFor({ timeout });
      await button.waitFor({ timeout });
    } catch {
      throw new Error(`${where}: the test panel never offered it; ${await shown(page)}`);
    }
    const at = node ?? ((await currentNode(page).textContent()) || null);
    const line = ((await button.getByRole('code').textContent()) ?? '').trim();
    const to = ARROW.exec(line)?.[2] ?? '∅';
    await button.click({ timeout });
    // That very button ("outcome → target") cannot be on the next node (a flow has no cycle):
    // once it is gone, the page has moved on.
    try {
      await outcomeButton(page, outcome, to).waitFor({ state: 'detached', timeout });
    } catch {
      throw new Error(`${where}: chosen, but the page did not move on; ${await shown(page)}`);
    }
    taken.push({ node: at, outcome, target: to === '∅' ? null : to });
  }
  return taken;
}

/** What the page shows, for an error message: its main heading and any alert. */
async function shown(page: Page): Promise<string> {
  const heading = await page
    .getByRole('heading', { level: 1 })
    .first()
    .textContent({ timeout: 1000 })
    .catch(() => null);
  const alert = await page
    .getByRole('alert')
    .first()
    .textContent({ timeout: 1000 })
    .catch(() => null);
  return `the page shows "${heading ?? '(no heading)'}"${alert ? ` with the alert "${alert}"` : ''}`;
}
