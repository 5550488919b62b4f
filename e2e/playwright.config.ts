import { defineConfig, devices } from '@playwright/test';
import { e2eServer } from './fixtures/server.ts';

/**
 * Browser tests in Debian's Chromium against the built app (`npm run build` first), served by the
 * real server on a fresh embedded database in a temporary folder.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: process.env.E2E_PORT ? `../test-results-${process.env.E2E_PORT}` : '../test-results',
  // Two files at a time, each in a worker with its own browser, against the one server: on two
  // cores the renderer leaves a core a quarter idle with one worker, and the suite takes 948 s
  // in two against 1,212 s in one (decision 0061). A file's tests run in order in one worker.
  // Tests run beside each other, so none changes what another relies on: the demo admin's
  // password and sessions, the demo workspace's settings (a test that needs that makes its own
  // person or workspace, `newWorkspaceOwner`).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  // A ceiling, not a measure: a test that creates, edits and deletes records with axe-core checking
  // each new screen takes ~35 s alone, and up to twice that with a second run on the same two cores.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: e2eServer.url,
    // Recording a trace of every test costs CPU on every action; in CI a failed test is traced on its retry.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The app then shows no motion (index.css): no frames drawn for fades and spinners, which on two
    // cores cost the software compositor as much as the page's own scripts.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // Before the first start, the operator invites the demo admin to a second workspace: the
    // workspace-switching test accepts that invitation as an existing account.
    command: [
      `rm -rf ${e2eServer.dataDir}`,
      `node ../apps/server/dist/cli.js create-workspace --name "Second Store" --admin-email ${e2eServer.admin.email}`,
      'node ../apps/server/dist/main.js',
    ].join(' && '),
    url: `${e2eServer.url}/api/health`,
    reuseExistingServer: false,
    // Two cores shared by several runs: a fresh database's first start can take a minute.
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(e2eServer.port),
      DATA_DIR: e2eServer.dataDir,
      BOOTSTRAP_ADMIN_EMAIL: e2eServer.admin.email,
      BOOTSTRAP_ADMIN_PASSWORD: e2eServer.admin.password,
      AUTH_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
    },
  },
});
