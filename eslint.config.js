import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import moonrelayImports from './eslint/moonrelay-imports.js';

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
    // A file that reaches itself again through its imports can run before what it needs has
    // loaded, and neither side can be read, tested or moved alone. Type-only imports are erased
    // before the code runs (verbatimModuleSyntax), so they make no cycle here; the layer rules
    // below count them.
    files: ['server/src/**', 'web/src/**', 'contract/**', 'sandbox/**', 'lua/**'],
    plugins: { moonrelay: moonrelayImports },
    rules: { 'moonrelay/no-import-cycle': ['error', { ignoreTypeImports: true }] },
  },
  {
    // The HTTP stack, the database, the platform, security and the settings sit below the
    // product's modules: the modules use them, never the other way round. Tests are left out: a
    // layer's test may drive the modules' code it exists for (bulk writes through their repos).
    files: ['server/src/**'],
    ignores: ['**/*.test.ts'],
    plugins: { moonrelay: moonrelayImports },
    rules: {
      'moonrelay/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: [
                'server/src/http/',
                'server/src/db/',
                'server/src/platform/',
                'server/src/security/',
                'server/src/config.ts',
              ],
              from: ['server/src/modules/'],
              message: 'what both need belongs in this layer or in contract/, and the module imports it from there',
            },
          ],
        },
      ],
    },
  },
  {
    // A screen does not reach into another screen's internals: what two features share lives in
    // web/src/components or web/src/lib, so either can change without breaking the other.
    files: ['web/src/features/**'],
    plugins: { moonrelay: moonrelayImports },
    rules: {
      'moonrelay/no-cross-feature': [
        'error',
        {
          features: 'web/src/features/',
          message: 'move what both use to web/src/components or web/src/lib',
        },
      ],
    },
  },
  {
    // Command-line tools, benchmarks and tests print their results.
    files: ['**/cli/**', 'bench/**', 'scripts/**', '**/*.test.ts', '**/*.measure.ts'],
    rules: { 'no-console': 'off' },
  },
);
