// The game on a 412 x 915 touch phone: a five-sentence item's answer buttons are on
// the first screen without scrolling, large enough to tap, with no key hints (there
// are no keys to press); the menu's links are 44 px tall, and every link and control
// of the game pages is 44 x 44 px at least. With GAPWISE_SCREENSHOTS
// set to a folder, the test leaves its screenshot there (docs/src/screenshots/ holds the
// reviewed one).
import { expect, test } from './guard';
import { hydrated, smallTargets, startPlaying } from './pages';

const PHONE = { viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true };

test('on a phone the answers of a five-sentence item are on the first screen', async ({ browser }) => {
  const page = await (await browser.newContext(PHONE)).newPage();
  await startPlaying(page);
  await hydrated(page);
  await expect(page.locator('form.item .contexts li')).toHaveCount(5);
  // each page names itself: the tab says where the player is
  await expect(page).toHaveTitle('Play · Gapwise');
  const options = page.locator('form.item button.option');
  await expect(options).toHaveCount(2);
  for (const option of await options.all()) {
    const box = await option.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.viewport.height);
    expect(box!.height).toBeGreaterThanOrEqual(44);
  }
  await expect(page.locator('form.item kbd').first()).toBeHidden();
  for (const link of await page.locator('.site-header nav a').all()) {
    const box = await link.boundingBox();
    expect(box?.height ?? 44).toBeGreaterThanOrEqual(44);
  }
  if (process.env.GAPWISE_SCREENSHOTS) await page.screenshot({ path: `${process.env.GAPWISE_SCREENSHOTS}/phone-play.png` });
  // the buttons work by touch
  await options.first().tap();
  await expect(page.locator('section.feedback')).toBeVisible();
});

// The header on 360 and 412 px phones, with and without JavaScript: nothing scrolls
// sideways; the menu button opens every page of the menu, each link whole on the
// screen and 44 px tall; links and controls that stand alone are 44 px tall too.
for (const width of [360, 412]) {
  for (const javaScriptEnabled of [true, false]) {
    test(`the ${width} px phone's menu ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, async ({ browser }) => {
      const context = await browser.newContext({ ...PHONE, viewport: { width, height: 800 }, javaScriptEnabled });
      const page = await context.newPage();
      await startPlayingPlain(page);
      const menu = page.locator('.site-header nav.main-menu a');
      // the six modes (Mode::ALL), propose, friends, the leaderboard, account, my data
      await expect(menu).toHaveCount(11);
      await expect(menu.first()).toBeHidden();
      const button = page.locator('.site-header .menu-button');
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await button.tap();
      for (const link of await menu.all()) {
        await expect(link).toBeVisible();
        const box = (await link.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        expect(box.height).toBeGreaterThanOrEqual(44);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (process.env.GAPWISE_SCREENSHOTS && javaScriptEnabled) {
        await page.screenshot({ path: `${process.env.GAPWISE_SCREENSHOTS}/phone-menu-${width}.png` });
      }
      // standalone targets: the footer's link, the home page's link to My data, the
      // download of My data, the achievements toggle, the language menu of Propose
      const targets: [string, string][] = [
        ['/play', '.achievements summary'],
        ['/play', '.site-footer a'],
        ['/my-data', 'a#download'],
        ['/suggest', 'select[name="language"]'],
        ['/', '.consent a[href="/my-data"]'],
      ];
      for (const [path, selector] of targets) {
        await page.goto(path);
        const target = page.locator(selector).first();
        await expect(target, `${path} ${selector}`).toBeVisible();
        expect((await target.boundingBox())!.height, `${path} ${selector}`).toBeGreaterThanOrEqual(44);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(width);
      }
      // axe runs in the page, so not where script is off (the guard would wait for it)
      if (!javaScriptEnabled) await context.close();
    });
  }
}

/** Starts playing as a new player with or without JavaScript (a plain form post). */
async function startPlayingPlain(page: import('@playwright/test').Page) {
  await page.goto('/');
  await page.getByLabel('I have read the above and agree to take part.').check();
  await page.locator('#start').click();
  await expect(page).toHaveURL(/\/play/);
}

// Every link and control of each game page, as it is before and after an answer, is
// a tap target of 44 x 44 px at least: the header's "Gapwise" and the cloze's "Next
// sentence" (the only way on after an answer) among them (the rating scale's buttons:
// rate.spec.ts, which publishes items to rate).
test('every link and control of the game pages is 44 x 44 px on a phone', async ({ browser }) => {
  const page = await (await browser.newContext(PHONE)).newPage();
  await startPlaying(page);
  const check = async (what: string) => {
    expect(await smallTargets(page), what).toEqual([]);
    const brand = (await page.locator('.site-header a.brand').boundingBox())!;
    expect(brand.height, `${what}: the brand`).toBeGreaterThanOrEqual(44);
  };
  await check('play');
  await page.locator('form.item button.option').first().tap();
  await expect(page.locator('section.feedback')).toBeVisible();
  await check('play, feedback');
  for (const path of ['/rate?lang=en', '/define?task=w2d&cap=10', '/define?task=d2w&cap=5', '/guess?lang=en&mode=type', '/guess?lang=en&mode=choose', '/new-words']) {
    await page.goto(path);
    await hydrated(page);
    await check(path);
  }
  await page.locator('form.new-words button.option').first().tap();
  await expect(page.locator('#told-sentence')).toBeVisible();
  await check('new words, an outcome');
  await page.goto('/cloze?lang=en');
  await check('cloze');
  await page.locator('#typed').fill('zzzz');
  await page.locator('#cloze-submit').tap();
  await expect(page.locator('#cloze-verdict')).toBeVisible();
  await check('cloze, an outcome');
  const next = (await page.locator('#cloze-outcome a#next').boundingBox())!;
  expect(Math.min(next.width, next.height)).toBeGreaterThanOrEqual(44);
});
