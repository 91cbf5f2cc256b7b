// The next-word game: a player types a guess for every word of one sentence and
// sees each word after guessing; the database holds one guess per position. Then
// the default model predicts the same sentence (`gapwise score-guess`), and a
// researcher finds people and the model side by side on the research page.
import { expect, test } from './guard';
import { addStaff, defaultModel, gapwise } from './cli';
import { query } from './db';
import { apiCalls, hydrated, signInStaff, startPlaying } from './pages';

const NAME = 'nora';
const PASSWORD = 'another passphrase for the browser test';

test('one sentence guessed word by word, then people and the model side by side', async ({ page }) => {
  await startPlaying(page);

  await page.goto('/guess?lang=en&mode=type');
  await hydrated(page);
  const calls = apiCalls(page);
  const total = Number((await page.locator('#guess-progress').innerText()).match(/of (\d+)/)?.[1]);
  expect(total).toBeGreaterThanOrEqual(3);
  // each guess reveals one more word: the revealed text grows (a word glued to the
  // one before it, as "été" to "l'", adds no space, so spaces are not counted)
  let before = '';
  for (let position = 1; position <= total; position++) {
    await expect(page.locator('#guess-progress')).toHaveAttribute('data-position', String(position));
    const revealed = (await page.locator('#revealed').innerText()).trim();
    expect(revealed.length).toBeGreaterThan(before.length);
    before = revealed;
    await page.locator('#guess').fill(position % 2 ? 'the' : 'was');
    await page.locator('#guess').press('Enter');
    await expect(page.locator('#last-guess')).toContainText(/“.+”/);
    if (position === 2) await page.screenshot({ path: 'test-results/screens/guess-type.png', fullPage: true });
    if (position === total) await expect(page.locator('#last-guess')).toContainText('Sentence done');
  }
  await expect(page.locator('#sentences-finished')).toHaveAttribute('data-finished', '1');
  // a guess is one request: it brings the next word (and after the last, the next sentence)
  expect(calls).toEqual(Array(total).fill('/api/guess'));
  const rows = query<{ position: number; guess: string; word: string; correct: number; client_ms: number; input_device: string; clock_us: number }>(
    `SELECT g.position, g.guess, g.word, g.correct, g.client_ms, g.input_device, g.clock_us FROM guess_answers g ORDER BY g.position`,
  );
  expect(rows.map((r) => r.position)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  for (const r of rows) {
    expect(r.correct).toBe(r.guess.toLowerCase() === r.word.toLowerCase() ? 1 : 0);
    expect(r.client_ms).toBeGreaterThan(0);
    // each guess's trial: what sent it, on the browser's fine clock (cross-origin isolated)
    expect(['mouse', 'touch', 'pen', 'key']).toContain(r.input_device);
    expect(r.clock_us).toBeLessThanOrEqual(20);
  }

  // the default model predicts the sentence people played first
  gapwise(['score-guess', '--model', defaultModel(), '--sentences', '1']);
  addStaff(NAME, 'researcher', PASSWORD);
  await signInStaff(page, NAME, PASSWORD);
  const table = page.locator('#next_word_accuracy table');
  await expect(table.locator('tr', { hasText: 'people' }).first()).toContainText(String(total));
  await expect(table.locator('tr', { hasText: "SmolLM2-135M-Instruct.Q4_1, people's positions" })).toContainText(String(total));
});

test('a sentence half-typed, then "with suggestions": suggestions or a word why there are none', async ({ page }) => {
  await startPlaying(page);
  await page.goto('/guess?lang=en&mode=type');
  await hydrated(page);
  await page.locator('#guess').fill('the');
  await page.locator('#guess').press('Enter');
  await expect(page.locator('#guess-progress')).toHaveAttribute('data-position', '2');
  await page.goto('/guess?lang=en&mode=choose');
  await hydrated(page);
  await expect(page.locator('#revealed')).toBeVisible();
  const suggestions = await page.locator('button.suggestion').count();
  if (suggestions === 0) await expect(page.locator('#no-suggestions')).toContainText('begun without suggestions');
  else await expect(page.locator('#no-suggestions')).toHaveCount(0);
});
