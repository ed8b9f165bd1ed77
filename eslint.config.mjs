// Lint: the rules that catch real bugs in this codebase (floating promises, `any`, unused code).
// Formatting is left to the editor; types are checked by `npm run typecheck`.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-check/**', 'dist-bench/**', 'node_modules/**', 'src/generated/**', 'web/map/gql/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // V8 gives each object made by a literal with an accessor a map of its own in old space, and
      // that map keeps the accessor's closure, and all it reaches, alive through every young
      // collection until the next full one: made per request, the whole request's graph is
      // promoted. Getters and setters belong on classes (or on a prototype, defined once).
      'no-restricted-syntax': [
        'error',
        { selector: "ObjectExpression > Property[kind='get'], ObjectExpression > Property[kind='set']", message: 'No getters or setters in object literals (eslint.config.mjs says why): use a method or a class.' },
      ],
    },
  },
);
