// A Prolific-style study end to end: an admin sets it up on the admin page; a
// participant arrives with the platform's ids, consents, answers the study's items
// with the feedback of each, then sees the completion code (GAPWISE_SCREENSHOTS
// keeps that screen), no longer offered to give the study back, and goes to
// Prolific's completion address with it; another
// gives the study back, confirming first, which frees its items.
import { expect, test } from './guard';
import { addStaff } from './cli';
import { query } from './db';
import { hydrated, signInStaff } from './pages';

const NAME = 'cora';
const PASSWORD = 'a passphrase for the crowd test';

// the participant who gave the study back is refused the next round (the browser logs the 422)
test.use({ allowedConsole: [/status of 422 \(Unprocessable Entity\)/] });

test('a Prolific participant goes from the entry link to the completion redirect', async ({ browser }) => {
  addStaff(NAME, 'admin', PASSWORD);
  const admin = await (await browser.newContext()).newPage();
  await signInStaff(admin, NAME, PASSWORD);
  await admin.goto('/admin');
  await hydrated(admin);
  const form = admin.locator('form.study-form');
  await form.locator('select[name="platform"]').selectOption('prolific');
  await form.locator('input[name="name"]').fill('Pilot study');
  await form.locator('input[name="items_target"]').fill('3');
  await form.locator('input[name="completion_code"]').fill('CODE77');
  await form.getByRole('button', { name: 'Create study' }).click();
  const row = admin.locator('table.studies tbody tr').filter({ hasText: 'Pilot study' });
  await expect(row).toHaveCount(1);
  const entry = (await row.locator('code.entry-url').innerText()).trim();
  expect(entry).toMatch(/^\/crowd\/[0-9a-z]+\?PROLIFIC_PID=\{\{%PROLIFIC_PID%\}\}/);
  const study = entry.split('?')[0];

  // the participant: entry, consent, three items, then back to Prolific with the code
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  let completion = '';
  await page.route('https://app.prolific.com/**', (route) => {
    completion = route.request().url();
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Prolific</p>' });
  });
  await page.goto(`${study}?PROLIFIC_PID=pid0001&STUDY_ID=s1&SESSION_ID=sess0001`);
  await hydrated(page);
  await expect(page.locator('h1')).toHaveText('Pilot study');
  await expect(page.locator('.crowd-task')).toContainText('3 items');
  await page.screenshot({ path: 'test-results/screens/crowd-entry-phone.png', fullPage: true });
  await page.getByLabel('I have read the above and agree to take part.').check();
  await page.locator('#start').click();
  await expect(page).toHaveURL(/\/play$/);
  for (let i = 0; i < 3; i++) {
    await expect(page.locator('.crowd-count')).toHaveText(`${i} of 3 items`);
    await expect(page.locator('form.item .contexts li')).toHaveCount(5);
    await page.waitForTimeout(200);
    await page.locator('form.item button.option').first().click();
    // every answer shows its feedback, the last one too
    await expect(page.locator('section.feedback')).toBeVisible();
    // a study, not the game: no levels or achievements (the first answer earns one in the game)
    await expect(page.locator('.news, .achievements')).toHaveCount(0);
    await page.locator('#next').click();
  }
  // the end: thanks, the code to copy, and the way back to the platform, in the study's
  // own layout (no game menu)
  await expect(page.locator('section.completed')).toBeVisible();
  await expect(page.locator('#completion-code')).toHaveValue('CODE77');
  await expect(page.locator('.site-header nav a[href="/play"]')).toBeHidden();
  await expect(page.locator('.site-header .menu-button')).toBeHidden();
  // nothing is left to give back: not on this screen, nor on the page the server
  // renders (with JavaScript, and without)
  await expect(page.locator('details.give-back, #give-back')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('section.completed')).toBeVisible();
  await expect(page.locator('details.give-back, #give-back')).toHaveCount(0);
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await plain.addCookies(await page.context().cookies());
  const unscripted = await plain.newPage();
  await unscripted.goto('/play');
  await expect(unscripted.locator('section.completed')).toBeVisible();
  await expect(unscripted.locator('.crowd-count')).toHaveText('3 of 3 items');
  await expect(unscripted.locator('details.give-back, #give-back')).toHaveCount(0);
  await plain.close();
  if (process.env.GAPWISE_SCREENSHOTS) await page.screenshot({ path: `${process.env.GAPWISE_SCREENSHOTS}/crowd-completed.png`, fullPage: true });
  await page.locator('#complete').click();
  await expect.poll(() => completion).toBe('https://app.prolific.com/submissions/complete?cc=CODE77');
  const done = query<{ status: string; answers: number }>(
    "SELECT a.status, (SELECT COUNT(*) FROM answers x WHERE x.annotator_id = a.annotator_id) AS answers FROM crowd_assignments a WHERE a.participant_id = 'pid0001'",
  );
  expect(done).toEqual([{ status: 'completed', answers: 3 }]);

  // another participant answers one item, then gives the study back: nothing of theirs holds an item
  const other = await (await browser.newContext()).newPage();
  await other.goto(`${study}?PROLIFIC_PID=pid0002&STUDY_ID=s1&SESSION_ID=sess0002`);
  await hydrated(other);
  await other.getByLabel('I have read the above and agree to take part.').check();
  await other.locator('#start').click();
  await other.locator('form.item button.option').first().click();
  await other.locator('#next').click();
  await expect(other.locator('.crowd-count')).toHaveText('1 of 3 items');
  // giving back is asked twice, and then says what to do on the platform
  await other.locator('#give-back').click();
  await expect(other.locator('details.give-back')).toContainText('cannot start it again');
  await other.locator('#confirm-give-back').click();
  await expect(other.locator('section.returned #returned')).toContainText('return the study on Prolific too');
  await expect(other.locator('p.error')).toHaveCount(0);
  await other.screenshot({ path: 'test-results/screens/crowd-returned.png' });
  const returned = query<{ status: string }>("SELECT status FROM crowd_assignments WHERE participant_id = 'pid0002'");
  expect(returned).toEqual([{ status: 'returned' }]);
  await admin.reload();
  await expect(admin.locator('table.studies tbody tr').filter({ hasText: 'Pilot study' }).locator('td.num')).toHaveText(['0', '1', '1', '0']);
});
