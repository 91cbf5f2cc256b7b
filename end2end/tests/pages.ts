// Helpers shared by the browser tests that drive pages.
import { expect, Page } from '@playwright/test';

/** Waits until the wasm front end has hydrated the page's islands (`hydrate()` marks the body after them). */
export async function hydrated(page: Page) {
  await expect(page.locator('body[data-hydrated="true"]')).toHaveCount(1);
}

/** Starts playing as a new player: the home page, consent, then the game at /play. */
export async function startPlaying(page: Page) {
  await page.goto('/');
  await hydrated(page);
  await page.getByLabel('I have read the above and agree to take part.').check();
  await page.locator('#start').click();
  await expect(page).toHaveURL(/\/play$/);
}

/** Signs a staff member in on /staff; they land on the research page. */
export async function signInStaff(page: Page, name: string, password: string) {
  await page.goto('/staff');
  await hydrated(page);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/research$/);
}

/** The server functions the page calls from now on, by path (`/api/...`), in order. */
export function apiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/')) calls.push(path);
  });
  return calls;
}

/** The links and controls shown on the page that are smaller than 44 x 44 CSS px, the
 *  least a tap target should be, each as `tag#id "text": width x height`. */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, summary, label[for]')]
      .map((e) => ({ e, box: e.getBoundingClientRect(), style: getComputedStyle(e) }))
      // not what is out of sight: the folded menu, the skip link above the page, a
      // checkbox kept for the keyboard under its label
      .filter(({ box, style }) => box.width > 1 && box.height > 1 && box.bottom > 0 && style.visibility !== 'hidden' && style.opacity !== '0')
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(({ e, box }) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} "${(e.textContent ?? '').trim().slice(0, 30)}": ${Math.round(box.width)} x ${Math.round(box.height)}`),
  );
}

/** The outcome on `page` is told in the sentence it answered (`sentence`, as shown
 *  with its blank), apart from the next item's sentence shown now. */
export async function toldInItsSentence(page: Page, sentence: string) {
  const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();
  const answer = await page.locator('#verdict span[lang="en"]').innerText();
  await expect(page.locator('#told-sentence')).toHaveAttribute('lang', 'en');
  await expect(page.locator('#told-sentence mark')).toHaveText(answer);
  expect(spaced(await page.locator('#told-sentence').innerText())).toBe(spaced(sentence.replace('_____', answer)));
  const next = page.locator('#new-word-sentence');
  if (await next.count()) expect(spaced(await next.innerText())).not.toBe(spaced(sentence));
}
