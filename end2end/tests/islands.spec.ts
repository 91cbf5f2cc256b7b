// Islands: a round form posted before its island took over (a plain form post, as
// a quick player or a slow phone sends it) and refused comes back as the page with
// the error in its address. The server renders the error inside the island, the
// island in the browser renders the same (a hydration mismatch fails the guard), and
// then plays on: the next answer goes through and the error is gone.
import { expect, test } from './guard';
import { apiCalls, hydrated, startPlaying } from './pages';

test('a refused plain post of a round: the error on the page, then the island plays on', async ({ page, baseURL }) => {
  await startPlaying(page);
  await page.goto('/define?task=w2d&cap=10');
  await hydrated(page);
  const serving = await page.locator('form.definitions input[name="serving_id"]').getAttribute('value');
  // what the browser sends without the island, with a choice no item has
  const refused = await page.request.post('/api/define-pick', {
    form: { serving_id: serving ?? '', position: '99', client_ms: '', task: 'w2d', cap: '10' },
    headers: { Accept: 'text/html', Referer: `${baseURL}/define?task=w2d&cap=10`, Origin: baseURL ?? '' },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(302);
  const back = refused.headers()['location'];
  expect(back).toContain('__err=');
  await page.goto(back);
  await hydrated(page);
  // the island starts from the round the server sent: it asks for nothing until a pick
  const calls = apiCalls(page);
  await expect(page.locator('main p.error')).toHaveCount(1);
  // shown once: the address loses the error, so that a reload does not show it again
  await expect(page).not.toHaveURL(/__err/);
  await expect(page).toHaveURL(/\/define\?task=w2d&cap=10$/);
  // a pick through the island: crossed out, or the round found
  await page.locator('form.definitions button.option').first().click();
  await expect(page.locator('#found, form.definitions button.option.wrong')).toHaveCount(1);
  expect(calls).toEqual(['/api/define-pick']);
  await expect(page.locator('main p.error')).toHaveCount(0);
});
