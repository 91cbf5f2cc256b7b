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
