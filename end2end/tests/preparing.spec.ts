// After a first start the demo's language models prepare material in the background
// (sentences to rate, next-word suggestions, in every language; see
// server/src/cli/demo_models.rs and the plan in model/src/preparation.rs).
// Meanwhile the pages they feed say it is being prepared, how many tasks run before
// and about how long, with and without JavaScript; once it is done they say what
// they said before. The server runs with --no-demo-models: the test sets the pending
// tasks.
import { expect, test } from './guard';
import { query } from './db';
import { hydrated, startPlaying } from './pages';

/** Places in the plan: rating in English (0), next words in English (1), rating in Russian (8). */
const RATING_EN = 1 << 0;
const NEXT_WORDS_EN = 1 << 1;
const RATING_RU = 1 << 8;

/** The tasks still to run (stored bits); none with `tasks` 0. */
function pending(tasks: number) {
  query(`DELETE FROM settings WHERE name IN ('demo_models_pending', 'demo_models_since')`);
  if (tasks) {
    query(`INSERT INTO settings (name, value) VALUES ('demo_models_pending', ${tasks})`);
    query(`INSERT INTO settings (name, value) VALUES ('demo_models_since', ${Date.now()})`);
  }
}

test('the pages the demo model feeds say it is being prepared', async ({ page, browser }) => {
  // as on a first start: no English sentence to rate, no next-word suggestion (the
  // next-word test's model predictions are set aside and put back)
  expect(query(`SELECT i.id FROM items i JOIN word_pairs p ON p.id = i.pair_id WHERE p.lang = 'en' AND i.kind = 'likert'`)).toEqual([]);
  query(`CREATE TABLE set_aside AS SELECT * FROM guess_predictions; DELETE FROM guess_predictions;`);
  pending(RATING_EN | NEXT_WORDS_EN | RATING_RU);
  try {
    await startPlaying(page);
    for (const path of ['/rate?lang=en', '/guess?mode=choose&lang=en']) {
      await page.goto(path);
      await hydrated(page);
      await expect(page.locator('p.exhausted.preparing'), path).toContainText('still preparing this game in this language');
      await page.screenshot({ path: `test-results/screens/preparing-${path.split('?')[0].slice(1)}.png` });
    }
    // every language is prepared, in the plan's order: two tasks run before Russian rating
    await page.goto('/rate?lang=ru');
    await hydrated(page);
    await expect(page.locator('p.exhausted.preparing')).toContainText('2 tasks run before it, about 1 min');
    // a language with nothing pending says nothing is left; typed guesses need no suggestion
    await page.goto('/rate?lang=fr');
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
