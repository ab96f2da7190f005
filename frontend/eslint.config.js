// ESLint for the frontend (flat config): typescript-eslint's recommended rules, the rules of
// hooks, and the layering as lint (bulletproof-react's import/no-restricted-paths and
// import/no-cycle, with eslint-plugin-import-x): the app composes features, features do not import
// each other, shared code imports no feature, and a module with an index.ts is entered there.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The folders of src/ that hold one folder per module. */
const dirsOf = (parent) =>
  readdirSync(new URL(`./src/${parent}`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${parent}/${entry.name}`);

const features = dirsOf('features');
/** Shared code: what features and the app build on, and which must not know them. */
const sharedRoots = ['shared', 'components', 'lib', 'config', 'test'];
/** Modules whose public surface is their index.ts (the lib's codec also has its worker's entry, without React). */
const publicModules = [...dirsOf('shared'), ...dirsOf('components'), ...dirsOf('lib')];
const publicEntries = { 'lib/codec': ['./index.ts', './load-codec.ts'] };

const src = (path) => `./src/${path}`;

const zones = [
  {
    target: sharedRoots.map(src),
    from: [src('features'), src('app')],
    message: 'Shared code does not import features or the app: a feature or the app passes what shared code needs.',
  },
  {
    target: src('features'),
    from: src('app'),
    message: 'Features do not import the app: the app composes them.',
  },
  // Each feature's own folder is the only part of src/features it may import from.
  ...features.map((feature) => ({
    target: src(feature),
    from: src('features'),
    except: [`./${feature.slice('features/'.length)}`],
    message: 'Features do not import each other: the app composes them (src/app/pages), and what two features share lives in src/shared.',
  })),
  // Outside a module, only its index.ts (its public surface).
  ...publicModules.map((module) => ({
    target: ['app', 'features', ...sharedRoots.flatMap((root) => (module.startsWith(`${root}/`) ? [] : [root]))]
      .map(src)
      .concat(publicModules.filter((other) => other !== module && !module.startsWith(`${other}/`)).map(src)),
    from: src(module),
    except: publicEntries[module] ?? ['./index.ts'],
    message: `Import ${module} through its index.ts, its public surface.`,
  })),
];

export default tseslint.config(
  { ignores: ['dist/', 'test-output/', 'node_modules/', 'src/shared/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      // import-x reads the imported files too (no-cycle follows them): TypeScript's parser for those.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-duplicates': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
