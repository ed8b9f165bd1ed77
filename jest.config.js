/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // Type checking runs once in `npm run typecheck`; per-file transpiling keeps jest fast.
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
  },
  testTimeout: 30000,
  // Integration tests start real servers on port 0; two workers match the 2-core machines.
  maxWorkers: 2,
};
