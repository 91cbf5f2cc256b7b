// A Likert round: two single-context items are published (copied from game items),
// a player rates one by clicking and one with the keyboard, and the database holds
// both ratings on the paper's scale (1 = surely the target), whichever side of the
// scale the target was shown on. The scale keeps one row on the desktop and is a
// column on a phone; its buttons hold their words in every interface language.
import { Page } from '@playwright/test';
import { accessible, expect, test } from './guard';
import { addLikertItem, query } from './db';
import { apiCalls, hydrated, smallTargets, startPlaying } from './pages';

test('a Likert rating round, by click and by key', async ({ page }) => {
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

  // the scale's five points keep one row on the desktop (a column on a phone: below)
  const oneRow = async (p: Page) => {
    const tops = await p.locator('form.likert button.option').evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(tops).toHaveLength(5);
    expect(new Set(tops).size).toBe(1);
  };

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

/** The scale's buttons on `p` hold their text: nothing overflows a button, and each
 *  corpus word, in the items' language `lang`, is on one line with the marks around
 *  it (quotation marks, a no-break space). Returns the buttons' tops. */
async function scaleFits(p: Page, lang: string): Promise<number[]> {
  const buttons = p.locator('form.likert button.option');
  await expect(buttons).toHaveCount(5);
  await expect(p.locator('form.likert ol.contexts')).toHaveAttribute('lang', lang);
  const found = await buttons.evaluateAll((all) =>
    all.map((b) => {
      const box = b.getBoundingClientRect();
      const words = [...b.querySelectorAll('span[lang]')].map((w) => {
        // the characters glued to the word: up to a plain space on either side
        const range = document.createRange();
        const [before, after] = [w.previousSibling, w.nextSibling];
        if (before?.nodeType === Node.TEXT_NODE) range.setStart(before, before.textContent!.length - before.textContent!.match(/[^ ]*$/)![0].length);
        else range.setStartBefore(w);
        if (after?.nodeType === Node.TEXT_NODE) range.setEnd(after, after.textContent!.match(/^[^ ]*/)![0].length);
        else range.setEndAfter(w);
        const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
        const r = w.getBoundingClientRect();
        return { lang: w.getAttribute('lang'), glued: range.toString(), spread: Math.max(...tops) - Math.min(...tops), inside: r.left >= box.left && r.right <= box.right };
      });
      return { text: b.textContent, top: Math.round(box.top), over: [b.scrollWidth - b.clientWidth, b.scrollHeight - b.clientHeight], words };
    }),
  );
  for (const button of found) {
    expect(button.over, `${button.text}: overflows`).toEqual([0, 0]);
    // the middle point names no word
    for (const word of button.words) {
      expect(word.lang, button.text!).toBe(lang);
      expect(word.spread, `${button.text}: "${word.glued}" on one line`).toBeLessThanOrEqual(2);
      expect(word.inside, `${button.text}: inside its button`).toBe(true);
    }
  }
  expect(found.map((b) => b.words.length)).toEqual([1, 1, 0, 1, 1]);
  expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  return found.map((b) => b.top);
}

test('the scale holds its words in every language, on the desktop and a phone', async ({ browser }) => {
  const languages = ['en', 'es', 'fr', 'it', 'ru'];
  const words = Object.fromEntries(languages.map((lang) => [lang, addLikertItem(lang)]));
  const phone = await (await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true })).newPage();
  const desktop = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  for (const page of [phone, desktop]) await startPlaying(page);
  for (const lang of languages) {
    for (const [page, device] of [[desktop, 'desktop'], [phone, 'phone']] as const) {
      // the interface and the items in one language
      await page.goto(`/language?to=${lang}&back=${encodeURIComponent(`/rate?lang=${lang}`)}`);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await hydrated(page);
      // the longest words of the language (rated past items published before them)
      const longest = new Set([words[lang].target, words[lang].distractor]);
      const score = page.locator('.status .score');
      for (let past = 0; past < 4; past++) {
        const now = new Set(await page.locator('form.likert button.option span[lang]').allInnerTexts());
        if ([...longest].every((w) => now.has(w))) break;
        const before = await score.innerText();
        await page.locator('form.likert button.option').nth(2).click();
        await expect(score).not.toHaveText(before);
      }
      expect(new Set(await page.locator('form.likert button.option span[lang]').allInnerTexts())).toEqual(longest);
      const tops = await scaleFits(page, lang);
      // one row on the desktop; on the phone a column, in the scale's order
      if (device === 'desktop') expect(new Set(tops).size, lang).toBe(1);
      else expect(tops.every((top, i) => i === 0 || top > tops[i - 1]), `${lang}: ${tops}`).toBe(true);
      await page.screenshot({ path: `test-results/screens/rate-${lang}-${device}.png`, fullPage: true });
      if (device === 'phone') {
        // taps: every button and link 44 x 44 px at least
        expect(await smallTargets(page), lang).toEqual([]);
        await accessible(page);
      }
    }
  }
  // the items Russian, the interface English: the sentence and the words say they are Russian
  await desktop.goto('/language?to=en&back=%2Frate%3Flang%3Dru');
  await expect(desktop.locator('html')).toHaveAttribute('lang', 'en');
  await hydrated(desktop);
  await scaleFits(desktop, 'ru');
});
