// A Likert round: two single-context items are published (copied from game items),
// a player rates one by clicking and one with the keyboard, and the database holds
// both ratings on the paper's scale (1 = surely the target), whichever side of the
// scale the target was shown on. The scale keeps one row on a phone and on the desktop.
import { Page } from '@playwright/test';
import { expect, test } from './guard';
import { query } from './db';
import { apiCalls, hydrated, startPlaying } from './pages';

test('a Likert rating round, by click and by key', async ({ page, browser }) => {
  const pair = query<{ id: number }>(
    `SELECT p.id FROM word_pairs p WHERE p.lang = 'it' AND EXISTS (SELECT 1 FROM items i WHERE i.pair_id = p.id AND i.kind = 'choice' AND i.k = 3)
     AND NOT EXISTS (SELECT 1 FROM items i WHERE i.pair_id = p.id AND i.kind = 'likert') LIMIT 1`,
  )[0].id;
  const source = query<{ id: number }>(`SELECT id FROM items WHERE pair_id = ${pair} AND kind = 'choice' AND k = 3 LIMIT 1`)[0].id;
  for (const position of [0, 1]) {
    query(`INSERT INTO items (pair_id, k, kind, created_at) VALUES (${pair}, 1, 'likert', 0)`);
    query(`INSERT INTO item_contexts (item_id, position, sentence_id, blank_start, blank_end)
           SELECT (SELECT MAX(id) FROM items), 0, sentence_id, blank_start, blank_end FROM item_contexts
           WHERE item_id = ${source} AND position = ${position}`);
  }
  const { target } = query<{ target: string }>(`SELECT target FROM word_pairs WHERE id = ${pair}`)[0];

  // the scale's five points keep one row, on a 412 px phone and on the desktop
  const oneRow = async (p: Page) => {
    const tops = await p.locator('form.likert button.option').evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(tops).toHaveLength(5);
    expect(new Set(tops).size).toBe(1);
  };
  const phone = await (await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true })).newPage();
  await startPlaying(phone);
  await phone.goto('/rate?lang=it');
  await hydrated(phone);
  await oneRow(phone);

  await startPlaying(page);
  await page.goto('/rate?lang=it');
  await hydrated(page);
  await oneRow(page);
  const calls = apiCalls(page);

  const chosen: { position: number; targetLeft: boolean }[] = [];
  for (const [round, position] of [[0, 1], [1, 2]]) {
    const buttons = page.locator('form.likert button.option');
    await expect(buttons).toHaveCount(5);
    await expect(page.locator('form.likert .blank')).toHaveCount(1);
    await expect(page.locator('.status .score')).toHaveText(`${round} rated`);
    const first = (await buttons.first().innerText()).trim();
    chosen.push({ position, targetLeft: first.endsWith(` ${target}`) });
    await page.waitForTimeout(200);
    if (round === 0) await buttons.nth(position - 1).click();
    else await page.keyboard.press(String(position));
    if (round === 0) await expect(page.locator('.status .score')).toHaveText('1 rated');
  }
  await expect(page.locator('p.exhausted')).toBeVisible();
  // a rating is one request: it brings the next item (here, the end)
  expect(calls).toEqual(['/api/rate', '/api/rate']);

  const rows = query<{ rating: number; client_ms: number | null; input_device: string | null; clock_us: number | null }>(
    `SELECT r.rating, r.client_ms, r.input_device, r.clock_us FROM rate_ratings r JOIN items i ON i.id = r.item_id WHERE i.pair_id = ${pair} ORDER BY r.item_id`,
  );
  expect(rows).toHaveLength(2);
  rows.forEach((row, i) => {
    const { position, targetLeft } = chosen[i];
    expect(row.rating).toBe(targetLeft ? position : 6 - position);
    expect(row.client_ms).not.toBeNull();
    // each rating's trial: what gave it, on the browser's fine clock (cross-origin isolated)
    expect(['mouse', 'touch', 'pen', 'key']).toContain(row.input_device);
    expect(row.clock_us).toBeLessThanOrEqual(20);
  });
});
