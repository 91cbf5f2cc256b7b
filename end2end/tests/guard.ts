// Every browser test runs under this guard: a console error, an uncaught page error
// or a hydration warning on any page the test opens (its own page, and pages of
// contexts it makes with browser.newContext / browser.newPage) fails the test. A test
// that provokes an error on purpose (a refused request the browser logs) names it
// with `test.use({ allowedConsole: [/.../] })`.
import { Browser, BrowserContext, ConsoleMessage, expect, Page, test as base } from '@playwright/test';

/** What the guard records of `page`: console errors, hydration warnings, page errors. */
function watch(page: Page, problems: string[]) {
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error' || /hydrat/i.test(m.text())) problems.push(`${page.url()}: console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()}: uncaught: ${e.message}`));
}

function watchContext(context: BrowserContext, problems: string[]) {
  context.pages().forEach((p) => watch(p, problems));
  context.on('page', (p) => watch(p, problems));
}

type Guard = { allowedConsole: RegExp[]; consoleGuard: void };

export const test = base.extend<Guard>({
  allowedConsole: [[], { option: true }],
  consoleGuard: [
    async ({ browser, context, allowedConsole }, use) => {
      const problems: string[] = [];
      watchContext(context, problems);
      // the contexts and pages a test makes for more players
      const b = browser as Browser;
      const [newContext, newPage] = [b.newContext.bind(b), b.newPage.bind(b)];
      b.newContext = async (...args) => {
        const made = await newContext(...args);
        watchContext(made, problems);
        return made;
      };
      b.newPage = async (...args) => {
        const made = await newPage(...args);
        watch(made, problems);
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
    },
    { auto: true },
  ],
});

export { expect };
