import { defineConfig } from 'vite';

export default defineConfig({
  // Served by the Lootsmith server at `/`; relative asset paths also work from any sub-path.
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Phaser alone is over a megabyte; one chunk is fine for a demo.
    chunkSizeWarningLimit: 2048,
  },
});
