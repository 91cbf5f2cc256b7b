// The game on a 412 x 915 touch phone: a five-sentence item's answer buttons are on
// the first screen without scrolling, large enough to tap, with no key hints (there
// are no keys to press); the menu's links are 44 px tall. With GAPWISE_SCREENSHOTS
// set to a folder, the test leaves its screenshot there (docs/src/screenshots/ holds the
// reviewed one).
import { expect, test } from './guard';
import { hydrated, startPlaying } from './pages';

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
