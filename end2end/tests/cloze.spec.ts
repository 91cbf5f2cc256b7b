// The cloze game: a player sees a sentence with one word blanked, types the word
// (read from the database), and the page the form comes back to says it was right,
// with the word; the next link brings another sentence. The database holds the one
// answer. The page has no island: its form posts as without JavaScript.
import { expect, test } from './guard';
import { query } from './db';
import { startPlaying } from './pages';

test('one cloze round: the blanked word typed, told right, then the next sentence', async ({ page }) => {
  await startPlaying(page);
  await page.goto('/cloze?lang=en');
  await expect(page.locator('form.cloze #typed')).toBeVisible();
  const serving = await page.locator('form.cloze input[name="serving_id"]').inputValue();
  const [{ text, position }] = query<{ text: string; position: number }>(
    `SELECT s.text, v.position FROM cloze_servings v JOIN sentences s ON s.id = v.sentence_id WHERE v.id = '${serving}'`,
  );
  // the sentence's words as the game counts them (gapwise_model::words): runs of
  // letters and digits, a hyphen between two of them inside; 1 is the second word
  const word = (text.match(/[\p{L}\p{N}]+(?:[-\u2010][\p{L}\p{N}]+)*/gu) ?? [])[position] ?? '';
  expect(word).toBeTruthy();
  const before = (await page.locator('#cloze-before').textContent()) ?? '';
  const after = (await page.locator('#cloze-after').textContent()) ?? '';
  expect(before + word + after).toBe(text);

  await page.locator('#typed').fill(word);
  await page.locator('#cloze-submit').click();
  await expect(page).toHaveURL(new RegExp(`/cloze\\?lang=en&answered=${serving}$`));
  await expect(page.locator('#cloze-verdict')).toHaveAttribute('data-right', 'true');
  await expect(page.locator('#cloze-verdict')).toContainText(`Right: “${word}”`);
  await expect(page.locator('#cloze-whole')).toHaveText(text);
  await expect(page.locator('#cloze-whole mark')).toHaveText(word);
  await expect(page.locator('#cloze-model-words')).toBeVisible();
  if (process.env.GAPWISE_SCREENSHOTS) await page.screenshot({ path: `${process.env.GAPWISE_SCREENSHOTS}/cloze-told.png`, fullPage: true });
  const rows = query<{ typed: string; correct: number }>(`SELECT typed, correct FROM cloze_answers WHERE serving_id = '${serving}'`);
  expect(rows).toEqual([{ typed: word, correct: 1 }]);

  await page.locator('#next').click();
  await expect(page.locator('form.cloze #typed')).toBeVisible();
  expect(await page.locator('form.cloze input[name="serving_id"]').inputValue()).not.toBe(serving);
});

// On a 412 px touch phone without JavaScript: the sentence, the box and its button
// on the first screen, 44 px tall, nothing scrolling sideways; a wrong word told
// wrong with the word that was there, and the link on 44 px tall. With GAPWISE_SCREENSHOTS set to a folder, the
// test leaves its screenshots there.
test('a cloze round on a phone without JavaScript', async ({ browser }) => {
  const width = 412;
  const context = await browser.newContext({ viewport: { width, height: 915 }, isMobile: true, hasTouch: true, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('I have read the above and agree to take part.').check();
  await page.locator('#start').click();
  await page.goto('/cloze?lang=fr');
  // the sentence is read in its own language, and describes the box
  await expect(page.locator('#cloze-sentence')).toHaveAttribute('lang', 'fr');
  await expect(page.locator('#typed')).toHaveAttribute('aria-describedby', 'cloze-sentence');
  for (const selector of ['#cloze-sentence', '#typed', '#cloze-submit']) {
    const box = (await page.locator(selector).boundingBox())!;
    expect(box.y + box.height, selector).toBeLessThanOrEqual(915);
    if (selector !== '#cloze-sentence') expect(box.height, selector).toBeGreaterThanOrEqual(44);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  if (process.env.GAPWISE_SCREENSHOTS) await page.screenshot({ path: `${process.env.GAPWISE_SCREENSHOTS}/phone-cloze.png` });
  await page.locator('#typed').fill('zzzz');
  await page.locator('#cloze-submit').tap();
  await expect(page.locator('#cloze-verdict')).toHaveAttribute('data-right', 'false');
  await expect(page.locator('#cloze-verdict')).toContainText('(you wrote “zzzz”)');
  // the words in the verdict are the sentence's, read in French
  await expect(page.locator('#cloze-verdict span[lang="fr"]')).toHaveCount(2);
  // the only way on: a tap target of 44 px
  const next = (await page.locator('#next').boundingBox())!;
  expect(Math.min(next.width, next.height)).toBeGreaterThanOrEqual(44);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  if (process.env.GAPWISE_SCREENSHOTS) await page.screenshot({ path: `${process.env.GAPWISE_SCREENSHOTS}/phone-cloze-told.png` });
  // axe runs in the page, so not where script is off (the guard would wait for it)
  await context.close();
});
