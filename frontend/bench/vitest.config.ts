import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from '../vite.config';

/** npm run bench: the Monte-Carlo's speed in node, printed as JSON lines (not a test: nothing is asserted). */
export default mergeConfig(
  viteConfig,
  defineConfig({ test: { include: ['bench/**/*.bench.ts'], testTimeout: 600_000, reporters: ['dot'] } }),
);
