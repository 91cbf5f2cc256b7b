// The interface in Russian: a player switches the language in the header, consents
// and plays one item, and no visible text on the game page is English (every text
// node is checked against the English catalogue). The main pages are captured in
// English and in Russian, on a desktop and a phone viewport, as artifacts under
// test-results/screens (not committed). The corpus's text on every game page carries
// its language (lang=), so that a screen reader reads it in that language's voice.
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

/** Every text of `main` in Cyrillic letters is in an element of lang="ru" (the interface
 *  here is English: only the corpus is Russian, and the names of languages, each
 *  written in itself). */
async function russianMarked(page: Page, where: string) {
  const unmarked = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (/[\u0400-\u04FF]/.test(node.textContent ?? '') && node.parentElement?.closest('[lang]')?.getAttribute('lang') !== 'ru') out.push(node.textContent!.trim());
    }
    return out;
  });
  expect(unmarked, `${where}: Russian text without lang="ru"`).toEqual([]);
  expect(await page.locator('main [lang="ru"]').count(), where).toBeGreaterThan(1);
}

/** The elements `selectors` show, each of them, are in an element of lang=`lang`. */
async function marked(page: Page, lang: string, selectors: string[]) {
  for (const selector of selectors) {
    const langs = await page.locator(selector).evaluateAll((all) => all.map((e) => e.closest('[lang]')?.getAttribute('lang')));
    expect(langs.length, selector).toBeGreaterThan(0);
    expect(new Set(langs), selector).toEqual(new Set([lang]));
  }
}

for (const javaScriptEnabled of [true, false]) {
  test(`the corpus's text carries its language, ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    const ready = async () => (javaScriptEnabled ? hydrated(page) : undefined);
    await page.goto('/');
    await page.locator('input[name="consent"]').check();
    await page.locator('#start').click();
    await expect(page).toHaveURL(/\/play/);

    // Russian items, the interface in English: the game, before and after an answer
    await page.goto('/play?lang=ru');
    await ready();
    await russianMarked(page, 'play');
    await marked(page, 'ru', ['form.item .context', 'form.item button.option .word']);
    await page.locator('form.item button.option').first().click();
    await expect(page.locator('section.feedback')).toBeVisible();
    await russianMarked(page, 'play, feedback');
    await marked(page, 'ru', ['section.feedback .verdict strong', 'section.feedback .context mark']);
    // (the rating page: rate.spec.ts, which publishes items to rate)
    for (const mode of ['type', 'choose']) {
      await page.goto(`/guess?lang=ru&mode=${mode}`);
      await ready();
      await russianMarked(page, `guess ${mode}`);
      await marked(page, 'ru', ['#revealed', ...((await page.locator('button.suggestion').count()) ? ['button.suggestion'] : [])]);
      await page.locator('#guess').fill('и');
      await page.locator('#guess').press('Enter');
      await expect(page.locator('#last-guess')).toBeVisible();
      await russianMarked(page, `guess ${mode}, a guess told`);
      await marked(page, 'ru', ['#last-guess span[lang]']);
    }
    await page.goto('/cloze?lang=ru');
    await russianMarked(page, 'cloze');
    await page.locator('#typed').fill('и');
    await page.locator('#cloze-submit').click();
    await expect(page.locator('#cloze-verdict')).toBeVisible();
    await russianMarked(page, 'cloze, told');
    await marked(page, 'ru', ['#cloze-verdict span[lang]', '#cloze-whole']);

    // the interface in Russian: WordNet's and WinoGrande's English
    await page.goto('/language?to=ru&back=%2Fdefine');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await ready();
    await marked(page, 'en', ['#define-prompt', 'form.definitions button.option']);
    await page.goto('/new-words');
    await ready();
    await marked(page, 'en', ['#new-word-sentence', 'form.new-words button.option', ...((await page.locator('#new-word-definition').count()) ? ['#new-word-definition span[lang]'] : [])]);
    // (an answer's outcome: new-words.spec and no-script.spec, whose counts of answers
    // another player's would upset)
    // axe runs in the page, so not where script is off (the guard would wait for it)
    if (!javaScriptEnabled) await context.close();
  });
}
