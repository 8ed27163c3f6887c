import { expect, test } from '@playwright/test';
import { startIdv, type IdvServer } from './support/idvServer';

// The code step's recovery (issue 22): a reload after a send shows the code field again (no
// second code), and a mistyped address is corrected at the code step without ending the node.
test.describe.configure({ mode: 'serial' });

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

const FLOW = [
  { id: 'start', type: 'start', outcome: 'mail' },
  { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'otp', canceled: 'end' } },
  {
    id: 'otp',
    type: 'two_factor_email',
    // Short, so the spec sees the wait and then its end without waiting long.
    resendAfterSeconds: 3,
    outcomes: { verified: 'end', failed_unverified: 'end', cancelled: 'end' },
  },
  { id: 'end', type: 'end' },
];

test('a reload keeps the code step; a mistyped address is changed there and verified', async ({
  page,
}) => {
  const typo = 'jnae.doe@example.com';
  const right = 'jane.doe@example.org';
  const { session, clientSecret } = await idv.createSession({ flow: FLOW, langs: ['en'] });
  await page.goto(clientSecret.url);
  await page.getByRole('textbox', { name: 'Email address' }).fill(typo);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('button', { name: 'Send the code' }).click();
  await idv.waitForMail(typo);
  const codeInput = page.getByRole('textbox', { name: 'Code (6 digits)' });
  await expect(codeInput).toBeVisible();

  // A reload: the code field again, with where the code went and the resend wait; nothing sent.
  await page.reload();
  await expect(codeInput).toBeVisible();
  await expect(page.getByText('We sent a code to j•••@example.com.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send the code' })).toHaveCount(0);
  expect(idv.inbox.filter((m) => m.to.includes(typo))).toHaveLength(1);

  // Change the address: back to the field, the node still current; the send waits its turn.
  await page.getByRole('button', { name: 'Change email address' }).click();
  const field = page.getByRole('textbox', { name: 'Email address' });
  await field.fill(right);
  const sendButton = page.getByRole('button', { name: 'Send the code' });
  await expect(sendButton).toBeEnabled({ timeout: 10_000 });
  await sendButton.click();
  const mail = await idv.waitForMail(right);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
  await expect(page.getByText('We sent a code to j•••@example.org.')).toBeVisible();
  await codeInput.fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();

  const result = await idv.getSession(session.id);
  expect(result.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'mail:emailEntered',
    'otp:verified',
  ]);
  expect(result.report.extractedData).toEqual({ email: right });
});
