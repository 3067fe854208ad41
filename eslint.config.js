import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // An empty catch hides failures; say why the error is ignored or handle it.
      'no-empty': ['error', { allowEmptyCatch: false }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // Command-line tools, benchmarks and tests print their results.
    files: ['**/cli/**', 'bench/**', 'scripts/**', '**/*.test.ts', '**/*.measure.ts'],
    rules: { 'no-console': 'off' },
  },
);
