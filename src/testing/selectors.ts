import type { Locator, Page } from '@playwright/test';

/** A string as a literal inside a regular expression. */
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The tester's panel of a test-mode session: the `complementary` landmark holding the outcome
 * buttons. Its name is translated ("Tester: choose the outcome of this step" in English), so it is
 * found by what it holds, whatever the page's language.
 *
 * @example
 * await expect(testPanel(page)).toBeVisible();
 */
export function testPanel(page: Page): Locator {
  return page.getByRole('complementary').filter({ has: page.getByRole('button', { name: / → / }) });
}

/**
 * The panel's button for one outcome. Each button ends with the untranslated line
 * `<outcome> → <target node>` (`∅` when the outcome leads nowhere), after the outcome's label
 * (and a conversation outcome's condition); `target` narrows to the one leading there.
 *
 * @example
 * await outcomeButton(page, 'permissionsGranted').click();
 * await expect(outcomeButton(page, 'permissionsDenied', '∅')).toBeVisible();
 */
export function outcomeButton(page: Page, outcome: string, target?: string): Locator {
  const line = new RegExp(`^${literal(outcome)} → ${target ? literal(target) : '\\S+'}$`);
  return testPanel(page)
    .getByRole('button')
    .filter({ has: page.getByRole('code').getByText(line) });
}

/**
 * The id of the node the panel is deciding (the page shows `<step name> · <node id>` above the
 * buttons).
 *
 * @example
 * await expect(currentNode(page)).toHaveText('perm');
 */
export function currentNode(page: Page): Locator {
  return testPanel(page).getByRole('paragraph').getByRole('code');
}
