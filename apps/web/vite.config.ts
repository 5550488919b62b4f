import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// react-router's package exports point every bundler at its development build (warnings and
// invariant texts included); its own production build is the same API, ~4 KB smaller on the wire.
const reactRouterProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

const compressible = /\.(js|css|html|svg|json|txt)$/;

/**
 * Writes `.gz` and `.br` twins of the built text assets; the server serves them as they are
 * (`preCompressed`), so browsers download compressed files without per-request CPU. Small files
 * get them too (the server never compresses a static file itself), unless a twin is no smaller.
 */
function precompress(): Plugin {
  return {
    name: 'dukkan-precompress',
    apply: 'build',
    async writeBundle(options) {
      const outDir = options.dir ?? 'dist';
      const files = (await readdir(outDir, { recursive: true })).filter((file) => compressible.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const content = await readFile(path);
          const twins = {
            gz: await promisify(gzip)(content, { level: 9 }),
            br: await promisify(brotliCompress)(content, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
            }),
          };
          for (const [extension, compressed] of Object.entries(twins)) {
            if (compressed.length < content.length) await writeFile(`${path}.${extension}`, compressed);
          }
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: [{ find: /^react-router$/, replacement: reactRouterProduction }],
  },
  server: {
    // The API runs on :3000 (`npm run dev`); the Host header is kept so the origin check passes.
    proxy: { '/api': { target: 'http://localhost:3000' } },
  },
  build: {
    target: 'es2022',
    // Every browser of the es2022 target supports <link rel="modulepreload">: no polyfill on the login path.
    modulePreload: { polyfill: false },
    // Fonts are bundled files, never a CDN; small ones stay separate so only the needed subset loads.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every module the entry loads before the first page goes in the entry chunk: rolldown
          // otherwise splits them by which lazy pages share them, into requests of 67 bytes up.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
      treeshake: {
        // The contract is declarations only: a page that imports `apiBase` must not pull in every
        // zod schema with it (that alone would add ~20 KB gzip to /login).
        moduleSideEffects: (id, external) => external || !id.includes('/packages/contract/src/'),
      },
    },
  },
});
