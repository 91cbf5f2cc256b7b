// Browser tests run by scripts/test.sh, which builds the site with scripts/build.sh and
// passes the server binary, the site folder and a fresh SQLite file in the environment.
import { defineConfig } from '@playwright/test';

const port = process.env.GAPWISE_E2E_PORT ?? '3917';
const baseURL = `http://127.0.0.1:${port}`;
const required = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests through scripts/test.sh`);
  return value;
};

export default defineConfig({
  testDir: './tests',
  timeout: 90_000,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/results.json' }]],
  outputDir: 'test-results/artifacts',
  use: {
    baseURL,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
             '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `${required('GAPWISE_BIN')} serve --no-demo-models --addr 127.0.0.1:${port}`,
    url: baseURL,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      DATABASE_URL: `sqlite://${required('GAPWISE_E2E_DB')}`,
      LEPTOS_SITE_ROOT: required('LEPTOS_SITE_ROOT'),
      RUST_LOG: 'warn',
    },
  },
});
