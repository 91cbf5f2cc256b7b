// The word-definition game (W2D and D2W on WordNet groups): a player plays five
// rounds each way round, picking options in turn until the right one; every wrong
// pick is crossed out, the right one ends the round, and the database holds the
// picks with the rank each round took. D2W is played in a phone-sized viewport.
import { devices, Page } from '@playwright/test';
import { expect, test } from './guard';
import { query } from './db';
import { apiCalls, hydrated, startPlaying } from './pages';

/** Plays `rounds` rounds of `task`; returns the number of picks each took. */
async function play(page: Page, task: string, rounds: number): Promise<number[]> {
  await page.goto(`/define?task=${task}&cap=10`);
  await hydrated(page);
  const calls = apiCalls(page);
  const picks: number[] = [];
  for (let round = 0; round < rounds; round++) {
    await expect(page.locator('#rounds-finished')).toHaveAttribute('data-finished', String(round));
    const options = page.locator('form.definitions button.option');
    const shown = await options.count();
    expect(shown).toBeGreaterThanOrEqual(5);
    expect(shown).toBeLessThanOrEqual(10);
    let n = 0;
    for (;;) {
      const wrongBefore = await page.locator('form.definitions button.option.wrong').count();
      await page.locator('form.definitions button.option:not(.wrong)').first().click();
      n++;
      await expect
        .poll(async () => {
          const finished = Number(await page.locator('#rounds-finished').getAttribute('data-finished'));
          const wrong = await page.locator('form.definitions button.option.wrong').count();
          return finished > round ? 'right' : wrong > wrongBefore ? 'wrong' : 'waiting';
        })
        .not.toBe('waiting');
      if (Number(await page.locator('#rounds-finished').getAttribute('data-finished')) > round) break;
      await expect(page.locator('form.definitions button.option.wrong')).toHaveCount(n);
      await expect(page.locator('form.definitions button.option.wrong').first()).toBeDisabled();
    }
    await expect(page.locator('#found')).toBeVisible();
    // the word and its definition are told, whatever the picks before
    await expect(page.locator('#found #solution strong')).not.toBeEmpty();
    if (picks.length === 0) await page.screenshot({ path: `test-results/screens/define-found-${task}.png` });
    picks.push(n);
  }
  // a pick is one request: it brings the round to show next
  const total = picks.reduce((sum, n) => sum + n, 0);
  expect(calls).toEqual(Array(total).fill('/api/define-pick'));
  return picks;
}

test('five W2D rounds and five D2W rounds on a phone', async ({ browser }) => {
  const desktop = await (await browser.newContext()).newPage();
  await startPlaying(desktop);
  const player = (await desktop.locator('.pseudonym').first().innerText()).trim();
  const w2d = await play(desktop, 'w2d', 5);
  await expect(desktop.locator('#define-prompt')).toHaveAttribute('data-kind', 'word');
  await desktop.screenshot({ path: 'test-results/screens/define-w2d-desktop.png', fullPage: true });
  const cookies = await desktop.context().cookies();

  const phone = await browser.newContext({ ...devices['Pixel 7'] });
  await phone.addCookies(cookies);
  const page = await phone.newPage();
  const d2w = await play(page, 'd2w', 5);
  await expect(page.locator('#define-prompt')).toHaveAttribute('data-kind', 'definition');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/screens/define-d2w-phone.png', fullPage: true });

  // the database: the player's ten finished rounds, each right pick at the rank the page took
  const mine = `JOIN define_servings s ON s.id = p.serving_id JOIN annotators n ON n.id = s.annotator_id AND n.pseudonym = '${player}'`;
  const rounds = query<{ task: string; attempt: number }>(
    `SELECT s.task, p.attempt FROM define_picks p ${mine} WHERE p.correct = 1 ORDER BY s.served_at`,
  );
  expect(rounds.filter((r) => r.task === 'w2d').map((r) => r.attempt)).toEqual(w2d);
  expect(rounds.filter((r) => r.task === 'd2w').map((r) => r.attempt)).toEqual(d2w);
  const times = query<{ n: number }>(`SELECT COUNT(*) AS n FROM define_picks p ${mine} WHERE p.attempt = 1 AND p.client_ms > 0`);
  expect(times[0].n).toBe(10);
  // every pick's trial: the desktop's clicks by mouse, each on the browser's fine
  // clock (cross-origin isolated: Chromium steps 5 us)
  const picks = [...w2d, ...d2w].reduce((sum, n) => sum + n, 0);
  const trials = query<{ n: number; mouse: number; fine: number }>(
    `SELECT COUNT(*) AS n, SUM(CASE WHEN s.task = 'w2d' AND p.input_device = 'mouse' THEN 1 ELSE 0 END) AS mouse,
            SUM(CASE WHEN p.input_device IS NOT NULL AND p.clock_us <= 20 AND p.frame_us > 0 THEN 1 ELSE 0 END) AS fine
     FROM define_picks p ${mine}`,
  );
  expect(trials[0]).toEqual({ n: picks, mouse: w2d.reduce((sum, n) => sum + n, 0), fine: picks });
  // no group met both ways round: a W2D solution would give a D2W answer away
  const both = query<{ target: string }>(
    `SELECT s.target FROM define_servings s JOIN annotators n ON n.id = s.annotator_id AND n.pseudonym = '${player}'
     GROUP BY s.target HAVING COUNT(DISTINCT s.task) > 1`,
  );
  expect(both).toEqual([]);
});
