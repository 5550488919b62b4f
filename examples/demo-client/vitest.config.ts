import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'demo-client', include: ['src/**/*.test.ts'], environment: 'node' },
});
