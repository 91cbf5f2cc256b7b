// A researcher made with `gapwise add-staff` signs in, sees the paper's tables and
// figures, filters them, and gets download links for the same selection; a visitor
// who is not signed in is refused.
import { expect, test } from './guard';
import { addStaff } from './cli';
import { signInStaff } from './pages';

const NAME = 'rita';
const PASSWORD = 'a passphrase for the browser test';

test.beforeAll(() => addStaff(NAME, 'researcher', PASSWORD));
// the visitor's refusal is the page's own status, which the browser logs
test.use({ allowedConsole: [/status of 401 \(Unauthorized\)/] });

test('the research page is for signed-in researchers, with filters and downloads', async ({ page }) => {
  const refused = await page.goto('/research');
  expect(refused?.status()).toBe(401);
  await expect(page.getByRole('alert')).toContainText('sign in');

  await signInStaff(page, NAME, PASSWORD);
  await expect(page.getByRole('heading', { name: /Tables 3-4/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Table 8/ })).toBeVisible();
  await expect(page.locator('figure#fig1_success_by_k img')).toBeVisible();

  await page.locator('select[name="language"]').selectOption('en');
  await page.getByLabel('Sentences (k)').selectOption('3');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/language=en/);
  await expect(page).toHaveURL(/k=3/);
  await expect(page.getByRole('link', { name: 'Parquet' })).toHaveAttribute('href', '/api/export/parquet?language=en&k=3');
  const csv = await page.request.get('/api/export/csv?language=en&k=3');
  expect(csv.status()).toBe(200);
  expect((await csv.text()).split('\n')[0]).toContain('item_id,language,k');
});
