import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    // The API runs on :3000 (`npm run dev`); the Host header is kept so the origin check passes.
    proxy: { '/api': { target: 'http://localhost:3000' } },
  },
  build: {
    target: 'es2022',
    // Fonts are bundled files, never a CDN; small ones stay separate so only the needed subset loads.
    assetsInlineLimit: 0,
    rolldownOptions: {
      treeshake: {
        // The contract is declarations only: a page that imports `apiBase` must not pull in every
        // zod schema with it (that alone would add ~20 KB gzip to /login).
        moduleSideEffects: (id, external) => external || !id.includes('/packages/contract/src/'),
      },
    },
  },
});
