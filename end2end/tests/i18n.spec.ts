// The interface in Russian: a player switches the language in the header, consents
// and plays one item, and no visible text on the game page is English (every text
// node is checked against the English catalogue). The main pages are captured in
// English and in Russian, on a desktop and a phone viewport, as artifacts under
// test-results/screens (not committed).
import { readFileSync } from 'node:fs';
import { Page } from '@playwright/test';
import { expect, test } from './guard';
import { hydrated } from './pages';

/** Every stretch of words of the English catalogue, without its { placeables }. */
function englishPhrases(): string[] {
  // the tests run in end2end/ (scripts/test.sh)
  const ftl = readFileSync('../app/locales/en/main.ftl', 'utf8');
  const texts: string[] = [];
  for (const line of ftl.split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    const message = line.match(/^[a-z-]+ = (.*)$/);
    const variant = line.match(/^\s+\*?\[[a-z]+\] (.*)$/);
    const text = message?.[1] ?? variant?.[1];
    if (text) texts.push(...text.split(/\{[^}]*\}/));
  }
  // short words ("no", "Who") also occur inside other languages' words and names
  return [...new Set(texts.map((t) => t.trim()).filter((t) => /[a-z]{3}/i.test(t) && t.length >= 4))];
}

/** Visible text of the page, node by node, leaving out what is not interface text:
 *  the pseudonym, and the language names, each written in its own language. */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('script, style, .pseudonym, [lang]:not(html)')) continue;
      const style = getComputedStyle(parent);
      if (style.display === 'none' || style.visibility === 'hidden' || parent.getClientRects().length === 0) continue;
      out.push(text);
    }
    return out;
  });
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

test('switching to Russian leaves no English on the game page', async ({ page }) => {
  // the pages run under a strict Content-Security-Policy: nothing may be refused
  const refused: string[] = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) refused.push(m.text()); });
  await page.goto('/');
  await hydrated(page);
  await shoot(page, 'home-en-desktop');
  await page.locator('nav.interface a[hreflang="ru"]').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await hydrated(page);
  await shoot(page, 'home-ru-desktop');
  await page.getByLabel('Я прочитал(а) написанное выше и согласен(на) участвовать.').check();
  await page.locator('#start').click();
  await expect(page).toHaveURL(/\/play$/);
  await hydrated(page);
  // the items follow the interface language
  await expect(page.locator('nav.languages:not(.interface) a[hreflang="ru"]')).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('form.item .prompt')).toHaveText('Какое слово стоит на месте пропуска?');
  await shoot(page, 'play-ru-desktop');

  const english = englishPhrases();
  expect(english.length).toBeGreaterThan(80);
  const check = async () => {
    const texts = await visibleTexts(page);
    expect(texts.length).toBeGreaterThan(10);
    const found = texts.filter((t) => english.some((e) => t.includes(e)));
    expect(found, 'English text on the Russian page').toEqual([]);
  };
  await check();
  await page.locator('form.item button.option').first().click();
  await expect(page.locator('section.feedback')).toBeVisible();
  await expect(page.locator('.progress .points')).toHaveText(/^\d+ очк(о|а|ов)$/);
  await page.locator('details.achievements summary').click();
  await expect(page.locator('details.achievements li.earned')).toContainText('Первый ответ.');
  await check();
  await shoot(page, 'feedback-ru-desktop');

  // the choice is kept in a cookie, for the other pages too
  await page.goto('/leaderboard');
  await expect(page.locator('h1')).toHaveText('Рейтинг');
  await shoot(page, 'leaderboard-ru-desktop');
  await page.goto('/friends');
  await expect(page.locator('h1')).toHaveText('Друзья');
  await expect(page).toHaveTitle('Друзья · Gapwise');
  await hydrated(page);
  await check();
  await page.goto('/my-data');
  await expect(page.locator('h1')).toHaveText('Мои данные');
  await shoot(page, 'my-data-ru-desktop');
  expect(refused).toEqual([]);
});

test('the main pages on a phone, in English and Russian', async ({ browser }) => {
  for (const lang of ['en', 'ru']) {
    const context = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`/language?to=${lang}&back=%2F`);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await hydrated(page);
    await shoot(page, `home-${lang}-phone`);
    await page.locator('input[name="consent"]').check();
    await page.locator('#start').click();
    await expect(page.locator('form.item button.option')).toHaveCount(2);
    // nothing wider than the screen
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shoot(page, `play-${lang}-phone`);
    for (const path of ['/rate', '/leaderboard', '/suggest', '/friends']) {
      await page.goto(path);
      await hydrated(page);
      await shoot(page, `${path.slice(1)}-${lang}-phone`);
    }
    await context.close();
  }
});

test('the switcher refuses unknown languages and foreign redirects', async ({ request }) => {
  const bad = await request.get('/language?to=xx', { maxRedirects: 0 });
  expect(bad.status()).toBe(422);
  const away = await request.get('/language?to=fr&back=%2F%2Fevil.example%2F', { maxRedirects: 0 });
  expect(away.status()).toBe(303);
  expect(away.headers()['location']).toBe('/');
  expect(away.headers()['set-cookie']).toMatch(/^gapwise_lang=fr;.*HttpOnly/);
});
