import { defineConfig } from 'vitest/config';

/** `npm test`: every workspace's unit and HTTP tests. Browser tests are `npm run test:e2e`. */
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web'],
  },
});
