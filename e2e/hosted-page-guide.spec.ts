import { expect, test, type Page } from '@playwright/test';
import { startIdv, type IdvServer } from './support/idvServer';
import { checkScreen } from './support/pageChecks';

// Without an LLM the guide never reads out the integrator's instructions: a descriptive prompt
// becomes direct speech, and a question is answered and the prompt asked again.

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

const flowWith = (prompt: string) => [
  { id: 'start', type: 'start', outcome: 'ask' },
  {
    id: 'ask',
    type: 'conversation',
    prompt,
    outcomes: [
      { id: 'yes', condition: 'The user agrees', targetNodeId: 'done' },
      { id: 'no', condition: 'The user says no', targetNodeId: 'done' },
    ],
  },
  { id: 'done', type: 'end' },
];

async function openWith(page: Page, prompt: string, lang: string): Promise<string> {
  const { session, clientSecret } = await idv.createSession({
    flow: flowWith(prompt),
    langs: [lang],
  });
  await page.goto(clientSecret.url);
  // Chromium can recognise speech, so the page first offers the microphone; typing will do.
  await page.locator('.permissions .button-secondary').click();
  return session.id;
}

const words = (page: Page) => page.getByTestId('avatar-words');

test('a descriptive prompt is said as direct speech in Spanish', async ({ page }) => {
  await openWith(page, 'Pregunta al usuario si abre una cuenta personal o de empresa.', 'es');
  await expect(words(page)).toHaveText('¿Abres una cuenta personal o de empresa?');
  await expect(page.locator('body')).not.toContainText('Pregunta al usuario');
  await checkScreen(page, 'guide-descriptive-es');
});

test('a descriptive prompt is said as direct speech in German', async ({ page }) => {
  await openWith(
    page,
    'Frage den Nutzer, ob er ein privates oder ein geschäftliches Konto eröffnet.',
    'de',
  );
  await expect(words(page)).toHaveText('Eröffnen Sie ein privates oder ein geschäftliches Konto?');
  await expect(page.locator('body')).not.toContainText('Frage den Nutzer');
});

test('a question is answered and the question asked again', async ({ page }) => {
  const id = await openWith(page, 'Ask the user whether they are ready to start.', 'en');
  await expect(words(page)).toHaveText('Are you ready to start?');
  const box = page.getByRole('textbox', { name: 'Your answer' });
  await box.fill('hmm, what is this for?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(words(page).locator('p')).toHaveText([
    'I ask so that we can confirm it is really you: this keeps your account safe.',
    'Are you ready to start?',
  ]);
  await expect(box).toHaveValue('');
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', 'ask');
  await checkScreen(page, 'guide-question-answered');

  await box.fill('Yes');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();
  const session = await idv.getSession(id);
  expect(session.report.transcript.map((t) => t.text)).toEqual([
    'Are you ready to start?',
    'hmm, what is this for?',
    'I ask so that we can confirm it is really you: this keeps your account safe.',
    'Are you ready to start?',
    'Yes',
  ]);
  expect(session.report.nodeReports.map((r) => r.outcome)).toEqual(['yes']);
});
