import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Library build: one ES module, Phaser left to the game (peer dependency), idb-keyval bundled (~1 KB).
export default defineConfig({
  build: {
    outDir: fileURLToPath(new URL('dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    minify: true,
    lib: {
      entry: fileURLToPath(new URL('src/index.ts', import.meta.url)),
      formats: ['es'],
      fileName: 'lootsmith',
    },
    // Lib mode keeps whitespace by default; the shipped file is the measured file, so minify it fully.
    rolldownOptions: { external: ['phaser'], output: { minify: true } },
  },
});
