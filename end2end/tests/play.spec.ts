// A person consents, plays 10 items with k = 5, which unlocks k = 3 at level 2, and 10
// with k = 3 by clicking; the database then holds exactly those 20 answers, with what
// was clicked and plausible times; the feedback announces the level reached and the
// achievements earned; a scored model then stands on the leaderboard.
import { Page } from '@playwright/test';
import { expect, test } from './guard';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from './db';
import { defaultModel, gapwise } from './cli';
import { hydrated, startPlaying } from './pages';

type Played = { word: string; correct: boolean; k: number; news: string };

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
  const news = (await feedback.locator('.news[role="status"]').allInnerTexts()).join(' ');
  if (news.includes('reached')) await page.screenshot({ path: 'test-results/screens/play-level-up.png' });
  await page.locator('#next').click();
  await expect(feedback).toHaveCount(0);
  return { word, correct, k, news };
}

test('20 items: five sentences until level 2 unlocks three, all stored as clicked; then the leaderboard with a model', async ({ page }) => {
  // the debug build's model scores the demo's 1,983 English contexts in about 8 min
  test.setTimeout(720_000);
  const before = query<{ n: number }>('SELECT COUNT(*) AS n FROM answers')[0].n;
  await startPlaying(page);

  // one sentence is the hardest: locked for a new player, as is three
  await expect(page.locator('nav.k-chooser a[href="/play?k=1&lang=en"] .lock')).toHaveCount(1);
  await page.goto('/play?k=1&lang=en');
  await expect(page.locator('p.locked')).toContainText('level 3');
  await page.goto('/play?k=5&lang=en');
  // each page load: the game's island takes over before the first answer (an answer
  // given earlier goes as a plain post, whose feedback tells no level reached)
  await hydrated(page);

  const played: Played[] = [];
  for (let i = 0; i < 10; i++) played.push(await playOne(page, 5));
  // every answer earns a point, so ten answers reach level 2 (10 points): k = 3 opens
  await expect(page.locator('nav.k-chooser a[href="/play?k=3&lang=en"] .lock')).toHaveCount(0);
  await page.locator('nav.k-chooser a[href="/play?k=3&lang=en"]').click();
  await expect(page).toHaveURL(/k=3&lang=en$/);
  await hydrated(page);
  for (let i = 0; i < 10; i++) played.push(await playOne(page, 3));

  const score = played.filter((p) => p.correct).length;
  await expect(page.locator('.status .score')).toHaveText(`${score} right of 20`);
  // one point an answer, and for a right one 2 more at k = 3, 1 more at k = 5; a
  // level L starts at 5 L (L - 1) points
  const points = played.reduce((sum, p) => sum + 1 + (p.correct ? (p.k === 3 ? 2 : 1) : 0), 0);
  const levelOf = (p: number) => {
    let l = 1;
    while (5 * (l + 1) * l <= p) l++;
    return l;
  };
  const level = levelOf(points);
  expect(level).toBeGreaterThanOrEqual(2);
  // the feedback says so when an answer reaches a level or earns an achievement
  expect(played[0].news).toContain('New achievement: First answer.');
  let sum = 0;
  for (const p of played) {
    const was = levelOf(sum);
    sum += 1 + (p.correct ? (p.k === 3 ? 2 : 1) : 0);
    if (levelOf(sum) > was) expect(p.news).toContain(`Level ${levelOf(sum)} reached!`);
    else expect(p.news).not.toContain('reached');
  }
  await expect(page.locator('.progress .points')).toHaveText(`${points} points`);
  await expect(page.locator('.progress .level')).toHaveText(`Level ${level}`);
  await expect(page.locator('.progress .daily')).toHaveText('Today 20 of 20');
  await page.screenshot({ path: 'test-results/screens/play-level-desktop.png', fullPage: true });

  const rows = query<{ chosen: string; correct: number; client_ms: number | null; server_ms: number; k: number }>(
    `SELECT chosen, correct, client_ms, server_ms, k FROM answers ORDER BY created_at LIMIT -1 OFFSET ${before}`,
  );
  expect(rows).toHaveLength(20);
  rows.forEach((row, i) => {
    expect(row.chosen).toBe(played[i].word);
    expect(row.correct === 1).toBe(played[i].correct);
    expect(row.k).toBe(played[i].k);
    expect(row.client_ms).not.toBeNull();
    expect(row.client_ms!).toBeGreaterThan(0);
    expect(row.client_ms!).toBeLessThan(10 * 60 * 1000);
    expect(row.server_ms).toBeGreaterThanOrEqual(row.client_ms! - 50);
  });

  // the default model plays the English items (Eq. 2), then stands on the leaderboard beside the player
  gapwise(['score', '--model', defaultModel(), '--language', 'en']);
  await page.goto('/leaderboard');
  await expect(page.locator('table.standings tr.model')).not.toHaveCount(0);
  await expect(page.locator('table.standings tr.model .badge').first()).toHaveText('model');
  const pseudonym = query<{ pseudonym: string }>(
    'SELECT n.pseudonym FROM annotators n JOIN answers a ON a.annotator_id = n.id GROUP BY n.id ORDER BY MAX(a.created_at) DESC LIMIT 1',
  )[0].pseudonym;
  await expect(page.locator('table.standings')).toContainText(pseudonym);
  // the player's own row is marked as theirs
  await expect(page.locator('table.standings tr.me')).toHaveCount(1);
  await expect(page.locator('table.standings tr.me')).toContainText(pseudonym);
  await expect(page.locator('table.standings tr.me .badge.you')).toHaveText('you');
  await page.screenshot({ path: 'test-results/screens/leaderboard-en-desktop.png', fullPage: true });
});

test('the keyboard plays: 1 or 2 chooses, Enter goes on; a round is one request', async ({ page }) => {
  await startPlaying(page);
  await hydrated(page);
  const calls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) calls.push(new URL(r.url()).pathname);
  });
  const first = await page.locator('form.item input[name="answer_id"]').inputValue();
  const second = (await page.locator('form.item button.option').nth(1).locator('.word').innerText()).trim();
  await page.locator('.status').first().click();
  await page.keyboard.press('2');
  await expect(page.locator('section.feedback')).toBeVisible();
  const chosen = query<{ chosen: string }>(`SELECT chosen FROM answers WHERE id = '${first}'`);
  expect(chosen).toEqual([{ chosen: second }]);
  await page.keyboard.press('Enter');
  await expect(page.locator('form.item')).toBeVisible();
  expect(await page.locator('form.item input[name="answer_id"]').inputValue()).not.toBe(first);
  // the answer, the feedback, the progress and the next item came in one request
  expect(calls).toEqual(['/api/answer-round']);
});

type TrialRow = {
  id: string;
  item_id: number;
  input_device: string | null;
  hidden_changes: number | null;
  clock_us: number | null;
  frame_us: number | null;
  client_ms: number | null;
  server_ms: number;
};

function trialsOf(ids: string[]): Record<string, TrialRow> {
  const rows = query<TrialRow>(
    `SELECT id, item_id, input_device, hidden_changes, clock_us, frame_us, client_ms, server_ms FROM answers
     WHERE id IN (${ids.map((id) => `'${id}'`).join(', ')})`,
  );
  return Object.fromEntries(rows.map((r) => [r.id, r]));
}

const shownId = (page: Page) => page.locator('form.item input[name="answer_id"]').inputValue();

test('each answer carries its trial: the input that gave it, a page hidden mid-item, the clock and the frame', async ({ page }) => {
  await startPlaying(page);
  await hydrated(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  const feedback = page.locator('section.feedback');
  const next = async () => {
    await page.keyboard.press('Enter');
    await expect(page.locator('form.item')).toBeVisible();
    await page.waitForTimeout(300);
  };
  await page.waitForTimeout(300);
  const clicked = await shownId(page);
  await page.locator('form.item button.option').first().click();
  await expect(feedback).toBeVisible();
  await next();
  const keyed = await shownId(page);
  await page.keyboard.press('1');
  await expect(feedback).toBeVisible();
  await next();
  // the page goes hidden and comes back while the item is shown, as when the
  // player looks at another tab (the browser's event, with the state it reports)
  const left = await shownId(page);
  await page.evaluate(() => {
    for (const state of ['hidden', 'visible']) {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    }
  });
  await page.locator('form.item button.option').nth(1).click();
  await expect(feedback).toBeVisible();

  const trials = trialsOf([clicked, keyed, left]);
  expect([clicked, keyed, left].map((id) => trials[id].input_device)).toEqual(['mouse', 'key', 'mouse']);
  expect([clicked, keyed, left].map((id) => trials[id].hidden_changes)).toEqual([0, 0, 1]);
  for (const t of Object.values(trials)) {
    // Chromium's clock steps 100 µs, 5 µs when the page is cross-origin isolated (the
    // server sends COOP and COEP, so it is)
    expect(t.clock_us!).toBeGreaterThan(0);
    expect(t.clock_us!).toBeLessThanOrEqual(20);
    expect(t.frame_us!).toBeGreaterThan(0);
    expect(t.frame_us!).toBeLessThan(1_000_000);
    // from the first frame to the click: within the server's time from serving to answer
    expect(t.client_ms!).toBeGreaterThan(0);
    expect(t.client_ms!).toBeLessThanOrEqual(t.server_ms + 50);
  }

  // the researchers' export has the trial, and the answer given across a hidden page is flagged
  const out = mkdtempSync(join(tmpdir(), 'gapwise-trials-'));
  gapwise(['export', '--out', out, '--format', 'jsonl']);
  const exported = readFileSync(join(out, 'answers.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const hiddenRows = exported.filter((r) => r.item_id === trials[left].item_id && r.hidden_changes === 1);
  expect(hiddenRows).toHaveLength(1);
  expect(hiddenRows[0].flag).toContain('tab_hidden');
  expect(hiddenRows[0].input).toBe('mouse');
  expect(hiddenRows[0].clock_us).toBe(trials[left].clock_us);
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

  test('a tap is stored as a touch', async ({ page }) => {
    await startPlaying(page);
    await hydrated(page);
    await page.waitForTimeout(300);
    const tapped = await shownId(page);
    await page.locator('form.item button.option').first().tap();
    await expect(page.locator('section.feedback')).toBeVisible();
    expect(trialsOf([tapped])[tapped].input_device).toBe('touch');
  });
});
