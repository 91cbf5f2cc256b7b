// Two players become friends and one challenges the other, which takes the challenger
// to the challenge's items; both then see the challenge on their friends page (a table
// that hydrates without a warning, which the guard checks), and each reaches the
// challenge's items again with "Play the challenge". With GAPWISE_SCREENSHOTS set to a
// folder, the friends page with the challenge is left there (docs/src/screenshots/).
import { Browser, Page } from '@playwright/test';
import { expect, test } from './guard';
import { hydrated, startPlaying } from './pages';

async function newPlayer(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await startPlaying(page);
  await hydrated(page);
  return page;
}

/** Follows "Play the challenge" and sees one of the challenge's items. */
async function playChallenge(page: Page) {
  await page.goto('/friends');
  await hydrated(page);
  const challenge = page.locator('ul.challenges li.challenge');
  await expect(challenge).toHaveCount(1);
  await expect(challenge.locator('table.compare tbody tr')).toHaveCount(2);
  if (process.env.GAPWISE_SCREENSHOTS) await page.screenshot({ path: `${process.env.GAPWISE_SCREENSHOTS}/friends-challenge.png`, fullPage: true });
  await challenge.locator('a.play-challenge').click();
  await expect(page).toHaveURL(/\/play\?k=5&lang=en&challenge=/);
  await expect(page.locator('form.item button.option')).toHaveCount(2);
  await expect(page.locator('form.item .contexts li')).toHaveCount(5);
}

test('a challenge between friends is listed for both and played from the friends page', async ({ browser }) => {
  const challenged = await newPlayer(browser);
  const name = (await challenged.locator('.pseudonym').first().innerText()).trim();
  const challenger = await newPlayer(browser);

  await challenger.goto('/friends');
  await hydrated(challenger);
  await challenger.locator('#friend-name').fill(name);
  await challenger.locator('#add-friend').click();
  const friend = challenger.locator('ul.friends li.friend');
  await expect(friend).toContainText(name);
  await friend.locator('select[name="k"]').selectOption('5');
  await friend.locator('button.challenge').click();
  // the challenger goes straight to the challenge's items
  await expect(challenger).toHaveURL(/\/play\?k=5&lang=en&challenge=/);
  await expect(challenger.locator('form.item .contexts li')).toHaveCount(5);

  await playChallenge(challenger);
  await playChallenge(challenged);
});
