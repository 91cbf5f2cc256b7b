// Helpers shared by the browser tests that drive pages.
import { expect, Page } from '@playwright/test';

/** Waits until the wasm front end has taken over the server-rendered page (`App` marks the body). */
export async function hydrated(page: Page) {
  await expect(page.locator('body[data-hydrated="true"]')).toHaveCount(1);
}
