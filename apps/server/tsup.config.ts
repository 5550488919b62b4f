import { defineConfig } from 'tsup';

/** One ESM bundle of the server (and the shared contract); npm dependencies stay external. */
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: ['@dukkan/contract'],
});
