// Progressive enhancement: with JavaScript off, the server's HTML is the whole page.
// A person consents, answers three items of the main game and reads the feedback of
// each, then plays one round of the definitions, next-word and new-words games and
// reads its outcome; the other pages come whole. Pages left open say nothing of the
// front end's wasm, which only script uses (Chromium warns of a preload unused 3 s
// after a page's load).
import { Page } from '@playwright/test';
import { expect, test } from './guard';
import { hydrated, toldInItsSentence } from './pages';

test.use({ javaScriptEnabled: false });

/** Nothing waits for script: no "Loading…" and no streamed <template> left. */
async function complete(page: Page) {
  await expect(page.locator('main')).not.toContainText('Loading…');
  expect(await page.locator('main template').count()).toBe(0);
}

test('the main game without JavaScript: consent, three answers, feedback each time', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('I have read the above and agree to take part.').check();
  await page.locator('#start').click();
  await expect(page).toHaveURL(/\/play/);
  for (let i = 0; i < 3; i++) {
    await complete(page);
    const options = page.locator('form.item button.option');
    await expect(options).toHaveCount(2);
    await options.first().click();
    const feedback = page.locator('section.feedback');
    await expect(feedback).toBeVisible();
    await expect(page.locator('.verdict')).toHaveClass(/right|wrong/);
    await page.locator('#next').click();
    await expect(feedback).toHaveCount(0);
  }
});

test('one round of each other mode without JavaScript, with its outcome shown', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('I have read the above and agree to take part.').check();
  await page.locator('#start').click();
  await expect(page).toHaveURL(/\/play/);

  // definitions: a pick is marked wrong (crossed out) or ends the round
  await page.goto('/define?task=w2d&cap=10');
  await complete(page);
  await page.locator('form.definitions button.option').first().click();
  // the page the post comes back to: the round found, or the pick crossed out
  await expect(page.locator('#found, form.definitions button.option.wrong')).toHaveCount(1);
  await complete(page);
  const found = Number(await page.locator('#rounds-finished').getAttribute('data-finished'));
  expect(found === 1 || (await page.locator('form.definitions button.option.wrong').count()) === 1).toBe(true);
  // a round found says so, with the word and its definition
  if (found === 1) await expect(page.locator('#found #solution')).toBeVisible();
  else await expect(page.locator('#found')).toHaveCount(0);

  // next word: a typed guess, then the word that was there is revealed, and the verdict
  await page.goto('/guess?lang=en&mode=type');
  await complete(page);
  // the word to guess by its place (counting words by spaces miscounts "We'll": its
  // "ll" is a word of its own, revealed without a space)
  const position = async () => Number(await page.locator('#guess-progress').getAttribute('data-position'));
  const revealed = async () => (await page.locator('#revealed').innerText()).replace(/\s*\?$/, '');
  const [before, shown] = [await position(), await revealed()];
  await page.locator('#guess').fill('the');
  await page.locator('#guess').press('Enter');
  // how the guess went, on the page the post comes back to (waited for: the form post
  // is a page load that the key press does not wait for)
  await expect(page.locator('#last-guess')).toHaveAttribute('data-correct', /true|false/);
  await expect(page.locator('#last-guess')).toContainText(/the/);
  await complete(page);
  expect(await position()).toBe(before + 1);
  const now = await revealed();
  expect(now.startsWith(shown) && now.length > shown.length).toBe(true);

  // new words: an answer is counted and judged, and the next item shown
  await page.goto('/new-words');
  await complete(page);
  await expect(page.locator('#new-words-answered')).toHaveAttribute('data-answered', '0');
  const sentence = await page.locator('#new-word-sentence').innerText();
  await page.locator('form.new-words button.option').first().click();
  await complete(page);
  await expect(page.locator('#new-words-answered')).toHaveAttribute('data-answered', '1');
  await expect(page.locator('#verdict')).toHaveAttribute('data-correct', /true|false/);
  await expect(page.locator('form.new-words button.option')).toHaveCount(2);
  // the outcome is told in the sentence it answered, not the next one's
  await toldInItsSentence(page, sentence);

  for (const path of ['/rate', '/leaderboard', '/my-data', '/friends', '/account', '/suggest']) {
    await page.goto(path);
    await complete(page);
  }
});

test('pages left open say nothing of the wasm, without JavaScript and with it', async ({ page, browser }) => {
  const warned: string[] = [];
  const listen = (p: Page) => p.on('console', (m) => { if (/preload/i.test(m.text())) warned.push(`${p.url()}: ${m.text()}`); });
  listen(page);
  await page.goto('/');
  await page.getByLabel('I have read the above and agree to take part.').check();
  await page.locator('#start').click();
  await expect(page).toHaveURL(/\/play/);
  const scripted = await (await browser.newContext({ javaScriptEnabled: true })).newPage();
  listen(scripted);
  await scripted.context().addCookies(await page.context().cookies());
  for (const path of ['/guess?lang=en&mode=type', '/new-words', '/play']) {
    await page.goto(path);
    await complete(page);
    await scripted.goto(path);
    await hydrated(scripted);
    // past the 3 s after the load event that Chromium gives a preload
    await page.waitForTimeout(3500);
  }
  expect(warned).toEqual([]);
});
