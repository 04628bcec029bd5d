// Which test files `npm test` runs in which group (scripts/run-jest.mjs). scripts/test-groups.test.mjs
// checks the lists against the files: every file that can run Maven is in MAVEN, every listed file exists.

/**
 * The files that run Maven, or fetch jars with it (test/support/maven-project.ts, build-shapes.ts,
 * gradle-jars.ts): Maven does not lock its local repository (~/.m2), so two of them never run at once.
 */
export const MAVEN = [
  'orchestrator/test/integration/build-shapes-gradle.test.ts',
  'orchestrator/test/integration/build-shapes-maven.test.ts',
  'orchestrator/test/integration/diff-maven.test.ts',
  'orchestrator/test/integration/executor-fidelity.test.ts',
  'orchestrator/test/integration/first-pass-failed-maven.test.ts',
  'orchestrator/test/integration/gradle-platform-identities.test.ts',
  'orchestrator/test/integration/maven-end-to-end.test.ts',
  'orchestrator/test/integration/maven-failsafe.test.ts',
  'orchestrator/test/integration/maven-faults.test.ts',
  'orchestrator/test/integration/maven-quarantine.test.ts',
  'orchestrator/test/integration/order-probe-maven.test.ts',
  'orchestrator/test/integration/security-cli-token.test.ts',
  'orchestrator/test/integration/security-filters.test.ts',
];

/** The files that measure latency or memory against a bound: they run after the others, alone. */
export const ALONE = [
  'verdict-api/test/integration/security-admission.test.ts',
  'verdict-api/test/integration/security-bodies.test.ts',
  'verdict-api/test/integration/security-caches.test.ts',
  'verdict-api/test/integration/security-connections.test.ts',
  'verdict-api/test/integration/security-gate-evidence-size.test.ts',
  'verdict-api/test/integration/security-quotas.test.ts',
  'verdict-api/test/integration/security-run-size.test.ts',
  'verdict-api/test/integration/security-webhooks.test.ts',
];

/** A jest path pattern (a regular expression) matching exactly these files. */
export function pattern(files) {
  return `(${files.map((f) => `/${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`).join('|')})`;
}
