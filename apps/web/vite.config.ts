import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * `import … from 'zod'` in the browser. The app's: zod configured for a page whose policy forbids
 * eval (`src/lib/zod/index.ts`). The contract's: a stand-in filled with zod's members when the
 * app's zod loads, with the first form (`src/lib/zod/contract-zod.ts`) — so a page that only lists
 * records, whose contract schemas are never built, never downloads zod.
 */
function zodForTheBrowser(): Plugin {
  const appZod = fileURLToPath(new URL('./src/lib/zod/index.ts', import.meta.url));
  const contractZod = fileURLToPath(new URL('./src/lib/zod/contract-zod.ts', import.meta.url));
  return {
    name: 'dukkan-zod',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'zod') return null;
      return importer?.replaceAll('\\', '/').includes('/packages/contract/src/') ? contractZod : appZod;
    },
  };
}

const compressible = /\.(js|css|html|svg|json|txt)$/;

/**
 * Two chunks for what the pages after the login page share, instead of the ~30 automatic chunks
 * of 0.4–3 KB (one request each on a first visit) they were split into by which pages use them:
 * - `query-root`: what `app/query-root-chunk.ts` needs (server state, the session check), which
 *   every page but the login page loads;
 * - `signed-in-app`: what the signed-in area needs beyond that — its shell and every screen's
 *   common ground, the generic resource list — and no public page does (those stay split as
 *   before, so the public pages never download the signed-in area).
 * Membership is computed from the module graph once it is built: the modules a set of roots
 * imports statically, without the lazily loaded ones (a form, a dialog, a page of its own).
 */
function sharedChunks() {
  const members = { queryRoot: new Set<string>(), signedIn: new Set<string>() };
  const plugin: Plugin = {
    name: 'dukkan-shared-chunks',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const find = (suffix: string) => {
        const found = ids.find((id) => id.replaceAll('\\', '/').endsWith(suffix));
        if (!found) throw new Error(`dukkan-shared-chunks: no module ${suffix}`);
        return found;
      };
      const reach = (roots: readonly string[]) => {
        const seen = new Set<string>();
        const stack = [...roots];
        while (stack.length > 0) {
          const id = stack.pop() as string;
          if (seen.has(id)) continue;
          seen.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const queryRoot = find('/src/app/query-root-chunk.ts');
      const signedInApp = find('/src/app/signed-in-app.tsx');
      // Every page the router loads lazily but the signed-in area: the public pages and the portal.
      const publicPages = (
        this.getModuleInfo(find('/src/app/routes.tsx'))?.dynamicallyImportedIds ?? []
      ).filter((id) => id !== queryRoot && id !== signedInApp);
      members.queryRoot = reach([queryRoot]);
      const publicReach = reach([queryRoot, ...publicPages]);
      members.signedIn = new Set(
        [...reach([signedInApp, find('/src/resource-ui/resource-page.tsx')])].filter(
          (id) => !publicReach.has(id),
        ),
      );
    },
  };
  return {
    plugin,
    queryRoot: (id: string) => members.queryRoot.has(id),
    signedIn: (id: string) => members.signedIn.has(id),
  };
}

const shared = sharedChunks();

/** Where the build records what a page's first answer asks for beside the entry script (read by `spa.ts`). */
const preloadHintsFile = '.vite/preload-hints.json';

/**
 * Records, for the server (`apps/server/src/http/spa.ts`), the scripts a page needs after the
 * entry, each with the chunks it imports: `queryRoot` for every page but the login page,
 * `signedIn` (the signed-in area) for a visit with a session. The server lists them in the page
 * as `<link rel="modulepreload">`, so they download beside the entry instead of one after the
 * other, each asked for only once the one before it has run.
 */
function preloadHints(): Plugin {
  return {
    name: 'dukkan-preload-hints',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const withImports = (fileName: string, found = new Set<string>()) => {
        if (found.has(fileName)) return found;
        found.add(fileName);
        for (const imported of byFile.get(fileName)?.imports ?? []) withImports(imported, found);
        return found;
      };
      const chunkNamed = (name: string) => {
        const chunk = chunks.find((candidate) => candidate.name === name);
        if (!chunk) throw new Error(`dukkan-preload-hints: no chunk ${name}`);
        return chunk.fileName;
      };
      const loaded = new Set(
        chunks.filter((chunk) => chunk.isEntry).flatMap((chunk) => [...withImports(chunk.fileName)]),
      );
      const queryRoot = [...withImports(chunkNamed('query-root'))].filter((file) => !loaded.has(file));
      const signedIn = [...withImports(chunkNamed('signed-in-app'))].filter(
        (file) => !loaded.has(file) && !queryRoot.includes(file),
      );
      const path = (file: string) => `/${file}`;
      this.emitFile({
        type: 'asset',
        fileName: preloadHintsFile,
        source: JSON.stringify({ queryRoot: queryRoot.map(path), signedIn: signedIn.map(path) }, null, 2),
      });
    },
  };
}

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
  plugins: [zodForTheBrowser(), react(), tailwindcss(), precompress(), shared.plugin, preloadHints()],
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
          // A group takes its members only: a module public pages share with the signed-in area
          // stays out of `signed-in-app` (its members' other imports are split as usual).
          includeDependenciesRecursively: false,
          // Every module the entry loads before the first page goes in the entry chunk: rolldown
          // otherwise splits them by which lazy pages share them, into requests of 67 bytes up.
          groups: [
            { name: 'index', tags: ['$initial'], priority: 2 },
            { name: 'query-root', test: shared.queryRoot, priority: 1 },
            { name: 'signed-in-app', test: shared.signedIn, priority: 0 },
          ],
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
