import { defineConfig } from 'vite';

// Built into the server package (`server/dist/console`), which serves it at `/console/`; relative asset
// paths keep it working under a prefix too. Run from this folder: `vite build server/console`.
export default defineConfig({
  base: './',
  build: { outDir: '../dist/console', emptyOutDir: true },
});
