// A player proposes a word pair and sees it pending, and leaves feedback with markup
// in it, which the admin page shows as text (no XSS); an admin (made with
// `gapwise add-staff`) approves the pair on the admin page and builds its items; then
// another player adds the proposer as a friend on the friends page and is served
// that pair first.
import { Browser, Page } from '@playwright/test';
import { expect, test } from './guard';
import { addStaff } from './cli';
import { query } from './db';
import { hydrated, signInStaff, startPlaying } from './pages';

const ADMIN = 'root';
const PASSWORD = 'an admin passphrase for the browser test';

test.beforeAll(() => addStaff(ADMIN, 'admin', PASSWORD));

async function newPlayer(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await startPlaying(page);
  return page;
}

test('a suggested pair goes through moderation into the game', async ({ browser }) => {
  const [target, distractor] = ['water', 'fire'];
  const proposer = await newPlayer(browser);
  await proposer.getByRole('link', { name: 'Propose' }).click();
  await hydrated(proposer);
  await proposer.getByLabel('Word in the sentences').fill(target);
  await proposer.getByLabel('Other word').fill(distractor);
  await proposer.getByRole('button', { name: 'Propose' }).click();
  await expect(proposer.getByRole('status')).toContainText('Thank you');
  await expect(proposer.locator('ul.suggestions li').first()).toContainText(`${target} / ${distractor} (en) pending`);

  // feedback with markup in it reaches the admin as text, never as markup
  const markup = `<img src=x onerror="document.body.dataset.xss='admin'"><script>document.body.dataset.xss='script'</script>`;
  const sent = await proposer.request.post('/api/feedback', { form: { message: markup }, headers: { Accept: 'application/json' } });
  expect(sent.status()).toBe(200);

  const admin = await (await browser.newContext()).newPage();
  await signInStaff(admin, ADMIN, PASSWORD);
  await admin.goto('/admin');
  await hydrated(admin);
  await expect(admin.locator('ul.messages li').filter({ hasText: markup })).toHaveCount(1);
  expect(await admin.locator('body').getAttribute('data-xss')).toBeNull();
  await expect(admin.locator('ul.messages img, ul.messages script')).toHaveCount(0);
  const pending = admin.locator('section.pending-suggestion').filter({ has: admin.locator(`input[value="${target}"]`) });
  await pending.getByRole('button', { name: 'Approve' }).click();
  await expect(pending).toHaveCount(0);
  await admin.getByRole('button', { name: 'Build items for new pairs' }).click();
  await expect(admin.getByRole('status')).toContainText('items built');
  await expect(admin.locator('table.audit tbody tr').first()).toContainText('build items');
  const items = query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM items i JOIN word_pairs p ON p.id = i.pair_id WHERE p.target = '${target}' AND p.strategy = 'suggested'`,
  )[0].n;
  expect(items).toBeGreaterThan(0);

  await proposer.reload();
  await expect(proposer.locator('ul.suggestions li').first()).toContainText('approved');

  // another player adds the proposer as a friend, whose pairs then come first in their game
  const proposerName = query<{ pseudonym: string }>(
    `SELECT n.pseudonym FROM word_pairs p JOIN annotators n ON n.id = p.creator_id WHERE p.target = '${target}' AND p.strategy = 'suggested'`,
  )[0].pseudonym;
  const player = await newPlayer(browser);
  await player.goto('/friends');
  await hydrated(player);
  await player.locator('#friend-name').fill(proposerName);
  await player.locator('#add-friend').click();
  await expect(player.locator('ul.friends li.friend')).toContainText(proposerName);
  await expect(player.locator('ul.friends li.friend')).toContainText('1 pair in the game');
  // the item served when they started stays until answered; the next one is the friend's pair
  await player.goto('/play?k=5');
  await player.locator('form.item button.option').first().click();
  await player.locator('#next').click();
  await expect(player.locator('form.item button.option')).toHaveCount(2);
  const words = (await player.locator('form.item button.option .word').allInnerTexts()).map((w) => w.trim()).sort();
  expect(words).toEqual([target, distractor].sort());
});
