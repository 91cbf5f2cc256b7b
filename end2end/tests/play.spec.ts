// A person consents, plays 5 items with k = 1 and 5 with k = 5 by clicking, and the
// database then holds exactly those 10 answers, with what was clicked and plausible times.
import { expect, Page, test } from '@playwright/test';
import { query } from './db';
import { startPlaying } from './pages';

type Played = { word: string; correct: boolean; k: number };

async function playOne(page: Page, k: number): Promise<Played> {
  const options = page.locator('form.item button.option');
  await expect(options).toHaveCount(2);
  await expect(page.locator('form.item .contexts li')).toHaveCount(k);
  await expect(page.locator('form.item .blank')).toHaveCount(k);
  // think a little, as a person would, so the measured time is clearly above zero
  await page.waitForTimeout(150 + Math.floor(Math.random() * 200));
  const pick = options.nth(Math.floor(Math.random() * 2));
  const word = (await pick.locator('.word').innerText()).trim();
  await pick.click();
  const feedback = page.locator('section.feedback');
  await expect(feedback).toBeVisible();
  const correct = (await feedback.getAttribute('data-correct')) === 'true';
  await expect(page.locator('.verdict')).toHaveClass(correct ? /right/ : /wrong/);
  await page.locator('#next').click();
  await expect(feedback).toHaveCount(0);
  return { word, correct, k };
}

test('consent, then 5 items with k=1 and 5 with k=5, all stored as clicked', async ({ page }) => {
  const before = query<{ n: number }>('SELECT COUNT(*) AS n FROM answers')[0].n;
  await startPlaying(page);

  const played: Played[] = [];
  for (const k of [1, 5]) {
    await page.locator(`nav.k-chooser a[href="/play?k=${k}&lang=en"]`).click();
    await expect(page).toHaveURL(new RegExp(`k=${k}&lang=en$`));
    for (let i = 0; i < 5; i++) played.push(await playOne(page, k));
  }
  const score = played.filter((p) => p.correct).length;
  await expect(page.locator('.status .score')).toHaveText(`${score} right of 10`);
  // one point an answer, and for a right one 4 more at k = 1, 1 more at k = 5; a
  // level L starts at 5 L (L - 1) points, so 10 answers reach level 2 at least
  const points = played.reduce((sum, p) => sum + 1 + (p.correct ? (p.k === 1 ? 4 : 1) : 0), 0);
  let level = 1;
  while (5 * (level + 1) * level <= points) level++;
  expect(level).toBeGreaterThanOrEqual(2);
  await expect(page.locator('.progress .points')).toHaveText(`${points} points`);
  await expect(page.locator('.progress .level')).toHaveText(`Level ${level}`);
  await expect(page.locator('.progress .daily')).toHaveText('Today 10 of 20');

  const rows = query<{ chosen: string; correct: number; client_ms: number | null; server_ms: number; k: number }>(
    `SELECT chosen, correct, client_ms, server_ms, k FROM answers ORDER BY created_at LIMIT -1 OFFSET ${before}`,
  );
  expect(rows).toHaveLength(10);
  rows.forEach((row, i) => {
    expect(row.chosen).toBe(played[i].word);
    expect(row.correct === 1).toBe(played[i].correct);
    expect(row.k).toBe(played[i].k);
    expect(row.client_ms).not.toBeNull();
    expect(row.client_ms!).toBeGreaterThan(0);
    expect(row.client_ms!).toBeLessThan(10 * 60 * 1000);
    expect(row.server_ms).toBeGreaterThanOrEqual(row.client_ms! - 50);
  });
});

test('the keyboard plays: 1 or 2 chooses, Enter goes on', async ({ page }) => {
  await startPlaying(page);
  const first = await page.locator('form.item input[name="answer_id"]').inputValue();
  const second = (await page.locator('form.item button.option').nth(1).locator('.word').innerText()).trim();
  await page.locator('h1, .status').first().click();
  await page.keyboard.press('2');
  await expect(page.locator('section.feedback')).toBeVisible();
  const chosen = query<{ chosen: string }>(`SELECT chosen FROM answers WHERE id = '${first}'`);
  expect(chosen).toEqual([{ chosen: second }]);
  await page.keyboard.press('Enter');
  await expect(page.locator('form.item')).toBeVisible();
  expect(await page.locator('form.item input[name="answer_id"]').inputValue()).not.toBe(first);
});
