// After a first start the demo's language model prepares material in the background
// (sentences to rate, next-word suggestions; see server/src/cli/demo_models.rs).
// Meanwhile the pages it feeds say it is being prepared, in English only (the model's
// language), with and without JavaScript; once it is done they say what they said
// before. The server runs with --no-demo-models: the test sets the pending steps.
import { expect, test } from './guard';
import { query } from './db';
import { hydrated, startPlaying } from './pages';

/** Rating (2) and next words (4) still to run; none with `steps` 0. */
function pending(steps: number) {
  query(`DELETE FROM settings WHERE name = 'demo_models_pending'`);
  if (steps) query(`INSERT INTO settings (name, value) VALUES ('demo_models_pending', ${steps})`);
}

test('the pages the demo model feeds say it is being prepared', async ({ page, browser }) => {
  // as on a first start: no English sentence to rate, no next-word suggestion (the
  // next-word test's model predictions are set aside and put back)
  expect(query(`SELECT i.id FROM items i JOIN word_pairs p ON p.id = i.pair_id WHERE p.lang = 'en' AND i.kind = 'likert'`)).toEqual([]);
  query(`CREATE TABLE set_aside AS SELECT * FROM guess_predictions; DELETE FROM guess_predictions;`);
  pending(2 | 4);
  try {
    await startPlaying(page);
    for (const path of ['/rate?lang=en', '/guess?mode=choose&lang=en']) {
      await page.goto(path);
      await hydrated(page);
      await expect(page.locator('p.exhausted.preparing'), path).toContainText('still preparing this game');
      await page.screenshot({ path: `test-results/screens/preparing-${path.split('?')[0].slice(1)}.png` });
    }
    // the model prepares English only; typed guesses need no suggestion
    await page.goto('/rate?lang=ru');
    await hydrated(page);
    await expect(page.locator('p.exhausted')).toBeVisible();
    await expect(page.locator('p.exhausted.preparing')).toHaveCount(0);
    await page.goto('/guess?mode=type&lang=en');
    await hydrated(page);
    await expect(page.locator('form input[name="guess"]')).toBeVisible();

    // the server's HTML says the same without script
    const plain = await browser.newContext({ javaScriptEnabled: false });
    await plain.addCookies(await page.context().cookies());
    const noScript = await plain.newPage();
    await noScript.goto('/rate?lang=en');
    await expect(noScript.locator('p.exhausted.preparing')).toBeVisible();
    await plain.close();

    pending(0);
    await page.goto('/rate?lang=en');
    await hydrated(page);
    await expect(page.locator('p.exhausted')).toBeVisible();
    await expect(page.locator('p.exhausted.preparing')).toHaveCount(0);
  } finally {
    pending(0);
    query(`INSERT INTO guess_predictions SELECT * FROM set_aside; DROP TABLE set_aside;`);
  }
});
