// Import boundaries (`npm run lint`, run by `make test`), denying by default: every folder of the
// CLI is part of the gate's core unless a rule names it. Only cli.ts wires in the build tools'
// adapters (gradle/, maven/), which never import each other; only the adapters start JVMs (jvm/) and
// run the build tool (build-tool/). No cycles; the verdict API's domain imports neither http/ nor
// web/; the CLI reaches the verdict API only through its published contract. Their own test:
// scripts/dependency-rules.test.mjs adds forbidden imports and expects each rule to fire.
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, between modules or folders alike (a cycle of types is one too).',
      from: { path: '^(orchestrator|verdict-api)/src/' },
      to: { circular: true },
    },
    {
      name: 'only-the-cli-imports-the-adapters',
      severity: 'error',
      comment: "Gradle and Maven are adapters behind gate/build-adapter.ts: only cli.ts wires them in. A new folder is core, and may not import them.",
      from: { path: '^orchestrator/src/', pathNot: '^orchestrator/src/(cli\\.ts$|(gradle|maven)/)' },
      to: { path: '^orchestrator/src/(gradle|maven)/' },
    },
    {
      name: 'adapters-of-equal-rank',
      severity: 'error',
      comment: 'gradle/ and maven/ never import each other; what they share lives in jvm/, build-tool/ or the core.',
      from: { path: '^orchestrator/src/(gradle|maven)/' },
      to: { path: '^orchestrator/src/(gradle|maven)/', pathNot: '^orchestrator/src/$1/' },
    },
    {
      name: 'only-the-adapters-start-jvms',
      severity: 'error',
      comment: "Starting JVMs is the adapters' (through jvm/): the core only reads what a stress pass recorded (repetitions/).",
      from: { path: '^orchestrator/src/', pathNot: '^orchestrator/src/(gradle|maven|jvm)/' },
      to: { path: '^orchestrator/src/jvm/' },
    },
    {
      name: 'only-the-adapters-run-the-build-tool',
      severity: 'error',
      comment: "Running Maven or Gradle (build-tool/) is the adapters', and cli.ts's to wire them.",
      from: { path: '^orchestrator/src/', pathNot: '^orchestrator/src/(cli\\.ts$|(gradle|maven|build-tool)/)' },
      to: { path: '^orchestrator/src/build-tool/' },
    },
    {
      name: 'domain-imports-no-http-or-web',
      severity: 'error',
      comment: 'The verdict API\'s domain modules are called by http/ and web/, never the other way.',
      from: { path: '^verdict-api/src/', pathNot: '^verdict-api/src/(http|web|main\\.ts|server\\.ts)' },
      to: { path: '^verdict-api/src/(http|web)/' },
    },
    {
      name: 'cli-uses-the-contract-only',
      severity: 'error',
      comment: 'The CLI never imports the verdict API\'s code: only its contract (#contract, #identity, #markdown, shipped in orchestrator/vendor).',
      from: { path: '^orchestrator/src/' },
      to: { path: '^verdict-api/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|vendor|node_modules)/|\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.d.ts'] },
  },
};
