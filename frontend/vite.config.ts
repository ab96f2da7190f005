import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { sheetsAsset } from './scripts/sheets-asset';
import { studiesAsset } from './scripts/studies-asset';

/** The WebAssembly codec and its wrapper, built by codec/wasm/build.sh at the repository root. */
const wasmBuildDir = fileURLToPath(new URL('../build/wasm', import.meta.url));
/**
 * The scenario presets, study recipes and lab sheets; the studies go into the build as studies.json
 * (the Studies page without a backend), the sheets as sheets.json with their reference runs.
 */
const labsDir = fileURLToPath(new URL('../labs', import.meta.url));

/**
 * The dev server and `vite preview` pass api/ on to a satlab backend (`make run` serves one on
 * port 8000), so that the experiment console works there as it does under `satlab serve`.
 */
const api = { '/api': { target: process.env.SATLAB_API_URL ?? 'http://127.0.0.1:8000', ws: true } };

export default defineConfig({
  // Relative asset paths: the built site works from any directory, served statically or by the backend.
  base: './',
  plugins: [react(), studiesAsset(labsDir), sheetsAsset(labsDir)],
  resolve: { alias: { '@swf': wasmBuildDir } },
  // labs/channels.json is imported by the labs (the channel presets the backend's labs share).
  server: { fs: { allow: ['.', wasmBuildDir, labsDir] }, proxy: api },
  preview: { proxy: api },
  // The manifest lists each chunk and what it imports: scripts/first-load-size.mjs reads it.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
  test: { include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'], environment: 'node' },
});
