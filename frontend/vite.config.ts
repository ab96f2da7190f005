import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** The WebAssembly codec and its wrapper, built by codec/wasm/build.sh at the repository root. */
const wasmBuildDir = fileURLToPath(new URL('../build/wasm', import.meta.url));

export default defineConfig({
  // Relative asset paths: the built site works from any directory, served statically or by the backend.
  base: './',
  plugins: [react()],
  resolve: { alias: { '@swf': wasmBuildDir } },
  server: { fs: { allow: ['.', wasmBuildDir] } },
  build: { outDir: 'dist', emptyOutDir: true },
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
