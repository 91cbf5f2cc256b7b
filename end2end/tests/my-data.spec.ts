// A player on a phone plays 3 items, leaves feedback with HTML in it (shown escaped),
// finds their answers on "My data", downloads them, and erases everything; the
// database then holds no row that names them, in any table. The answers' table,
// wider than the phone, is a region the keyboard reaches, named in every language.
import { devices } from '@playwright/test';
import { accessible, expect, test } from './guard';
import { readFileSync } from 'node:fs';
import { query } from './db';
import { hydrated, startPlaying } from './pages';

test.use({ viewport: devices['Pixel 7'].viewport, userAgent: devices['Pixel 7'].userAgent, hasTouch: true, isMobile: true });

test('my data: see, download, erase everything', async ({ page }, testInfo) => {
  await startPlaying(page);
  for (let i = 0; i < 3; i++) {
    await page.locator('form.item button.option').first().click();
    await page.locator('#next').click();
  }

  await page.goto('/my-data');
  await hydrated(page);
  await expect(page.locator('#answer-count')).toHaveText('3');
  const pseudonym = (await page.locator('dd.pseudonym').innerText()).trim();
  const [{ id }] = query<{ id: string }>(`SELECT id FROM annotators WHERE pseudonym = '${pseudonym}'`);

  const message = `<img src=x onerror="document.body.dataset.xss='yes'"> great game`;
  await page.locator('textarea[name="message"]').fill(message);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('ul.messages li')).toContainText(message);
  expect(await page.locator('body').getAttribute('data-xss')).toBeNull();

  const download = page.waitForEvent('download');
  await page.locator('#download').click();
  const file = await (await download).path();
  const data = JSON.parse(readFileSync(file!, 'utf8'));
  expect(data.pseudonym).toBe(pseudonym);
  expect(data.answers).toHaveLength(3);
  await page.screenshot({ path: testInfo.outputPath('my-data-phone.png'), fullPage: true });

  await page.locator('input[name="confirm"]').fill('erase');
  await page.locator('#erase').click();
  await expect(page).toHaveURL(/erased=1/);
  await expect(page.getByRole('status')).toContainText('has been erased');

  const tables = query<{ t: string; c: string }>(
    `SELECT m.name AS t, p.name AS c FROM sqlite_master m JOIN pragma_table_info(m.name) p
     WHERE m.type = 'table' AND p.name IN ('annotator_id', 'creator_id')`,
  );
  expect(tables.length).toBeGreaterThanOrEqual(8);
  for (const { t, c } of [...tables, { t: 'annotators', c: 'id' }]) {
    const [{ n }] = query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t} WHERE ${c} = '${id}'`);
    expect(n, `${t}.${c}`).toBe(0);
  }
});

/** The message `key` of interface language `lang`'s catalogue (a message of one line). */
function message(lang: string, key: string): string {
  const line = readFileSync(`../app/locales/${lang}/main.ftl`, 'utf8').split('\n').find((l) => l.startsWith(`${key} = `));
  return line!.slice(key.length + 3);
}

test('the answers table on a phone: a named region the keyboard scrolls, in every language', async ({ page }) => {
  await startPlaying(page);
  for (let i = 0; i < 2; i++) {
    await page.locator('form.item button.option').first().click();
    await page.locator('#next').click();
  }
  for (const lang of ['en', 'es', 'fr', 'it', 'ru']) {
    await page.goto(`/language?to=${lang}&back=%2Fmy-data`);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    const region = page.locator('div.scroll:has(table.answers)');
    await expect(region).toHaveAttribute('role', 'region');
    await expect(region).toHaveAttribute('tabindex', '0');
    await expect(region).toHaveAttribute('aria-label', message(lang, 'my-data-answers-table'));
    await expect(page.getByRole('region', { name: message(lang, 'my-data-answers-table') })).toHaveCount(1);
    // where the table is wider than the screen, the keyboard reaches it and scrolls it
    const wider = await region.evaluate((r) => r.scrollWidth > r.clientWidth);
    if (lang !== 'en') expect(wider, lang).toBe(true);
    if (wider) {
      // the next stop after the download link
      await page.locator('#download').focus();
      await page.keyboard.press('Tab');
      await expect(region).toBeFocused();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => region.evaluate((r) => r.scrollLeft), lang).toBeGreaterThan(0);
    }
    await accessible(page);
  }
});
