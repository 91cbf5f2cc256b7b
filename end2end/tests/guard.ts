// Every browser test runs under this guard: a console error, an uncaught page error,
// a hydration warning or a warning of a preload unused on any page the test opens (its own page, and pages of
// contexts it makes with browser.newContext / browser.newPage) fails the test, and so
// does an accessibility violation axe-core finds on any of those pages as the test
// leaves it (tests check other states on the way with `accessible`). A test that
// provokes an error on purpose (a refused request the browser logs) names it with
// `test.use({ allowedConsole: [/.../] })`.
import AxeBuilder from '@axe-core/playwright';
import { Browser, BrowserContext, ConsoleMessage, expect, Page, test as base } from '@playwright/test';

/** axe-core's WCAG 2.1 A and AA rules find nothing on the page as it is now. */
export async function accessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const found = violations.map((v) => `${page.url()}: ${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, 'accessibility violations').toEqual([]);
}

/** What the guard records of `page`: console errors, hydration and preload warnings, page errors. */
function watch(page: Page, problems: string[], pages: Page[]) {
  pages.push(page);
  page.on('console', (m: ConsoleMessage) => {
    // the location names the resource of a failed load
    if (m.type() === 'error' || /hydrat|preloaded using link preload but not used/i.test(m.text())) problems.push(`${page.url()}: console.${m.type()}: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()}: uncaught: ${e.message}`));
}

function watchContext(context: BrowserContext, problems: string[], pages: Page[]) {
  context.pages().forEach((p) => watch(p, problems, pages));
  context.on('page', (p) => watch(p, problems, pages));
}

type Guard = { allowedConsole: RegExp[]; consoleGuard: void };

export const test = base.extend<Guard>({
  allowedConsole: [[], { option: true }],
  consoleGuard: [
    async ({ browser, context, allowedConsole, javaScriptEnabled, baseURL }, use) => {
      const problems: string[] = [];
      const pages: Page[] = [];
      watchContext(context, problems, pages);
      // the contexts and pages a test makes for more players
      const b = browser as Browser;
      const [newContext, newPage] = [b.newContext.bind(b), b.newPage.bind(b)];
      b.newContext = async (...args) => {
        const made = await newContext(...args);
        watchContext(made, problems, pages);
        return made;
      };
      b.newPage = async (...args) => {
        const made = await newPage(...args);
        watch(made, problems, pages);
        return made;
      };
      try {
        await use();
      } finally {
        b.newContext = newContext;
        b.newPage = newPage;
      }
      const unexpected = problems.filter((p) => !allowedConsole.some((allowed) => allowed.test(p)));
      expect(unexpected, 'console errors, page errors and hydration warnings').toEqual([]);
      // axe runs in the page: on Gapwise's pages (not a platform's stand-in a test
      // routes to), and not where the test turned script off (its own context)
      for (const page of pages) {
        const ours = page.context() === context;
        if (!page.isClosed() && page.url().startsWith(baseURL ?? 'http') && (javaScriptEnabled !== false || !ours)) await accessible(page);
      }
    },
    { auto: true },
  ],
});

export { expect };
