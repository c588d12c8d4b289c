import { defineConfig } from 'vite';

// `vite build` is the game as players get it; `vite build --mode test` adds the end-to-end tests'
// hook (see src/main.ts) and writes it beside those tests, so the two builds never mix.
export default defineConfig(({ mode }) => ({
  // Served by the Lootsmith server at `/`; relative asset paths also work from any sub-path.
  base: './',
  build: {
    outDir: mode === 'test' ? '../test/e2e/dist' : 'dist',
    emptyOutDir: true,
    // Phaser alone is over a megabyte; one chunk is fine for a demo.
    chunkSizeWarningLimit: 2048,
  },
}));
