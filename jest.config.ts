import type { Config } from 'jest';

// ESM throughout: ts-jest compiles each file as an ES module and jest runs under
// `node --experimental-vm-modules` (see the root package.json scripts).
const shared = {
  // Not under the temp folder: scripts/run-jest.mjs gives every run a fresh one, and ts-jest's
  // compiled files are worth keeping between runs.
  cacheDirectory: '<rootDir>/../node_modules/.cache/jest',
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: {
    '^@stress-gate/verdict-api/contract$': '<rootDir>/../verdict-api/src/contract.ts',
    '^@stress-gate/verdict-api/identity$': '<rootDir>/../verdict-api/src/identity/test-case-id.ts',
    // The orchestrator's package-internal imports of the contract (orchestrator/package.json "imports").
    '^#contract$': '<rootDir>/../verdict-api/src/contract.ts',
    '^#identity$': '<rootDir>/../verdict-api/src/identity/test-case-id.ts',
    '^#markdown$': '<rootDir>/../verdict-api/src/contract-markdown.ts',
    '^#reproduce$': '<rootDir>/../verdict-api/src/reproduce-command.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/../tsconfig.test.json', diagnostics: { ignoreCodes: [151002] } }],
  },
};

const workspaces = ['verdict-api', 'orchestrator'];

const config: Config = {
  // Integration tests run real Gradle builds and ClickHouse servers; unit tests finish in ms anyway.
  testTimeout: 300_000,
  // A handle a test leaves open (a server a failed expectation never closed) must not hold the run
  // until CI's time limit. Jest's "Force exiting Jest" line follows every run because of it;
  // `--detectOpenHandles` names a leaked handle.
  forceExit: true,
  projects: [
    ...workspaces.map((ws) => ({
      ...shared,
      displayName: { name: `unit:${ws}`, color: 'blue' as const },
      rootDir: `<rootDir>/${ws}`,
      testMatch: ['<rootDir>/src/**/*.test.ts'],
    })),
    ...workspaces.map((ws) => ({
      ...shared,
      displayName: { name: `integration:${ws}`, color: 'magenta' as const },
      rootDir: `<rootDir>/${ws}`,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      ...(ws === 'verdict-api'
        ? { globalSetup: '<rootDir>/test/support/global-setup.mjs', globalTeardown: '<rootDir>/test/support/global-teardown.mjs' }
        : {}),
    })),
    {
      // The repository's own tools (scripts/check-docs.mjs): plain ESM, no transform needed.
      ...shared,
      displayName: { name: 'unit:scripts', color: 'blue' as const },
      rootDir: '<rootDir>/scripts',
      testMatch: ['<rootDir>/*.test.mjs'],
    },
  ],
};

export default config;
