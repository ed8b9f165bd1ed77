/**
 * Two projects, one run (one `--json` report for .ci/run): every suite on the default executor
 * (graphql-jit), and the suites that execute GraphQL operations against a gateway
 * (test/integration) again on graphql-js. Both must pass: the compiled executor must answer
 * exactly as graphql-js does.
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // Type checking runs once in `npm run typecheck`; per-file transpiling keeps jest fast.
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
  },
};

module.exports = {
  projects: [
    { ...shared, displayName: 'jit', setupFiles: ['<rootDir>/test/helpers/executor-jit.ts'] },
    {
      ...shared,
      displayName: 'graphql-js',
      roots: ['<rootDir>/test/integration'],
      // executor.test.ts compares both executors itself; sandbox/ tests the sandbox alone, no gateway;
      // fleet/ tests state shared between gateway processes, whatever they execute with.
      testPathIgnorePatterns: ['/node_modules/', '/test/integration/executor\\.test\\.ts$', '/test/integration/sandbox/', '/test/integration/fleet/'],
      setupFiles: ['<rootDir>/test/helpers/executor-graphql-js.ts'],
    },
  ],
  testTimeout: 30000,
  // Integration tests start real servers on port 0; two workers match the 2-core machines.
  maxWorkers: 2,
};
