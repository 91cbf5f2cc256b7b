// The invented-word game (WinoDict) on a phone: a player answers five items, some
// with the sentence that defines the new word and some without; the database holds
// each answer with its condition and time. Then the default model judges the same
// items (`gapwise score-new-words`), and a researcher finds the accuracy of people
// and of the model, with and without definitions, side by side. Each answer's outcome
// is told in the sentence it answered, above the next item (whose sentence differs).
import { devices } from '@playwright/test';
import { expect, test } from './guard';
import { addStaff, defaultModel, gapwise } from './cli';
import { query } from './db';
import { apiCalls, hydrated, signInStaff, startPlaying, toldInItsSentence } from './pages';

const NAME = 'wanda';
const PASSWORD = 'a passphrase for the new words';
const MODEL = 'SmolLM2-135M-Instruct.Q4_1';

test('five new-word items on a phone, then people and the model side by side', async ({ browser }) => {
  const phone = await browser.newContext({ ...devices['Pixel 7'] });
  const page = await phone.newPage();
  await startPlaying(page);
  await page.goto('/new-words');
  await hydrated(page);
  const calls = apiCalls(page);

  const played: { sentence: string; defined: boolean; choice: number; correct: boolean }[] = [];
  for (let n = 0; n < 5; n++) {
    await expect(page.locator('#new-words-answered')).toHaveAttribute('data-answered', String(n));
    const sentence = await page.locator('#new-word-sentence').innerText();
    const defined = (await page.locator('#new-word-definition').count()) === 1;
    if (defined) await expect(page.locator('#new-word-definition')).toContainText(/^Definition: The (word|verb|meaning)/);
    const options = page.locator('form.new-words button.option');
    await expect(options).toHaveCount(2);
    const choice = n % 2;
    await options.nth(choice).click();
    await expect(page.locator('#new-words-answered')).toHaveAttribute('data-answered', String(n + 1));
    const correct = (await page.locator('#verdict').getAttribute('data-correct')) === 'true';
    await expect(page.locator('#verdict')).toContainText(correct ? 'Right' : 'Not this time');
    await toldInItsSentence(page, sentence);
    played.push({ sentence, defined, choice, correct });
    if (n === 0) await page.screenshot({ path: 'test-results/screens/new-words-phone.png', fullPage: true });
  }
  // an answer is one request: it brings the next item
  expect(calls).toEqual(Array(5).fill('/api/new-words-pick'));
  expect(played.some((p) => p.defined)).toBe(true);
  expect(played.some((p) => !p.defined)).toBe(true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // the database: five answers in the conditions and with the choices the page showed
  const rows = query<{ sentence: string; with_definition: number; choice: number; correct: number; client_ms: number; input_device: string; clock_us: number }>(
    `SELECT v.sentence, s.with_definition, s.choice, s.correct, s.client_ms, s.input_device, s.clock_us FROM new_words_servings s
     JOIN new_words_variants v ON v.item_id = s.item_id AND v.word = s.word WHERE s.choice IS NOT NULL ORDER BY s.served_at`,
  );
  expect(rows).toHaveLength(5);
  rows.forEach((r, i) => {
    // the page collapses runs of spaces, as HTML does (a no-break space stays one)
    const spaced = (text: string) => text.replace(/\s+/g, ' ');
    expect(spaced(r.sentence.replace('_', '_____'))).toBe(spaced(played[i].sentence));
    expect(r.with_definition).toBe(played[i].defined ? 1 : 0);
    expect(r.choice).toBe(played[i].choice);
    expect(r.correct).toBe(played[i].correct ? 1 : 0);
    expect(r.client_ms).toBeGreaterThan(0);
    // each answer's trial: what gave it, on the browser's fine clock (cross-origin isolated)
    expect(['mouse', 'touch', 'pen', 'key']).toContain(r.input_device);
    expect(r.clock_us).toBeLessThanOrEqual(20);
  });

  // the default model judges the items people answered, in every setup
  gapwise(['score-new-words', '--model', defaultModel(), '--items', '5']);
  addStaff(NAME, 'researcher', PASSWORD);
  await signInStaff(page, NAME, PASSWORD);
  const table = page.locator('#new_words_accuracy table');
  const rowsOf = (player: string) => table.locator('tbody tr').filter({ has: page.locator('td:first-child', { hasText: player }) });
  await expect(rowsOf('people').first()).toBeVisible();
  for (const [shown, teaching] of [['shown', 'suffix'], ['none', 'empty']]) {
    const people = played.filter((p) => p.defined === (shown === 'shown')).length;
    const peopleRows = rowsOf('people').filter({ has: page.locator('td:nth-child(3)', { hasText: shown }) });
    const counted = await peopleRows.evaluateAll((trs) => trs.reduce((sum, tr) => sum + Number(tr.children[4].textContent), 0));
    expect(counted).toBe(people);
    const modelRows = rowsOf(`${MODEL}, people's items`).filter({ has: page.locator('td:nth-child(3)', { hasText: teaching }) });
    const judged = await modelRows.evaluateAll((trs) => trs.reduce((sum, tr) => sum + Number(tr.children[4].textContent), 0));
    expect(judged).toBe(people);
  }
  await expect(rowsOf(`${MODEL}, all its items`)).toHaveCount(9);
});
