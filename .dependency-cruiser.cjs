// Import boundaries (`npm run lint`, run by `make test`): no cycles, the gate's core imports no
// build tool, the build tools' adapters do not import each other, the verdict API's domain imports
// neither http/ nor web/, and the CLI reaches the verdict API only through its published contract.
/** The CLI's core: the flow of a gate run and everything it decides with, build-tool free. */
const CORE = '^orchestrator/src/(args|candidates|ceiling|ci-env|comment|config|enforce|evidence|first-pass|format|gate|gated-observation|guard|identity|order-probe|quarantine|repetitions|report|reproduce|verdict)/';

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
      name: 'core-imports-no-build-tool',
      severity: 'error',
      comment: "The gate's core (candidates, decision, report…) knows no build tool: Gradle and Maven are adapters behind gate/build-adapter.ts.",
      from: { path: CORE },
      to: { path: '^orchestrator/src/(gradle|maven|build-tool)/' },
    },
    {
      name: 'core-launches-no-jvm',
      severity: 'error',
      comment: 'Starting JVMs is the adapters\' (through jvm/): the core only reads what a stress pass recorded (repetitions/).',
      from: { path: CORE },
      to: { path: '^orchestrator/src/jvm/' },
    },
    {
      name: 'adapters-of-equal-rank',
      severity: 'error',
      comment: 'gradle/ and maven/ never import each other; what they share lives in jvm/, build-tool/ or the core.',
      from: { path: '^orchestrator/src/(gradle|maven)/' },
      to: { path: '^orchestrator/src/(gradle|maven)/', pathNot: '^orchestrator/src/$1/' },
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
