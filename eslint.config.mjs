// Lint is part of `npm test`: strict from day one, no rules parked "to turn on later".
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate',
    'Buffer', 'performance', 'fetch', 'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder', 'structuredClone', 'queueMicrotask']
    .map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dist-test/**', '.tools/**', 'test-artifacts/**', '.bench/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The core must stay free of the editor: both hosts sit on it.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core must not import vscode.' }] }],
    },
  },
  {
    // Tests build a session with the kit's testSession(), which shuts it down and removes its folders after the test.
    files: ['test/**/*.ts'],
    ignores: ['test/kit/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/core/session', '**/src/core/session/index'], importNames: ['createSession'], message: 'Use testSession() from test/kit/test-session.ts.' }] },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.cjs', 'bin/*.js', 'test/vscode-smoke/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
