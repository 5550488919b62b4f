import { defineConfig } from 'tsup';

/**
 * ESM bundles of the server and the operator's command line (with the shared contract); npm
 * dependencies stay external.
 */
export default defineConfig({
  entry: { main: 'src/main.ts', cli: 'src/cli.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node24',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: ['@dukkan/contract'],
});
