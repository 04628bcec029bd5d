// The import rules of .dependency-cruiser.cjs, on a small tree shaped like orchestrator/src: each
// forbidden import added on purpose fails its rule, and the imports the layout allows pass. A new
// folder is core by default, so it is held to the core's rules without being named anywhere.
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const { forbidden } = require('../.dependency-cruiser.cjs');

/** Cruises a tree of `files` (path → the modules it imports) and returns the rules it breaks, as `rule: from → to`. */
async function violations(files) {
  const root = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  for (const [file, imports] of Object.entries(files)) {
    const full = join(root, file);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, `${imports.map((m, i) => `import * as m${i} from '${m}';`).join('\n')}\nexport const here = 1;\n`);
  }
  const result = await cruise(['orchestrator/src'], {
    baseDir: root,
    validate: true,
    ruleSet: { forbidden },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts'] },
  });
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

/** The layout every case starts from: each allowed import once. */
const ALLOWED = {
  'orchestrator/src/cli.ts': ['./gradle/adapter', './maven/adapter', './build-tool/run', './gate/run'],
  'orchestrator/src/gate/run.ts': ['../report/words'],
  'orchestrator/src/report/words.ts': [],
  'orchestrator/src/gradle/adapter.ts': ['../jvm/launch', '../build-tool/run', '../gate/run'],
  'orchestrator/src/maven/adapter.ts': ['../jvm/launch', '../build-tool/run'],
  'orchestrator/src/jvm/launch.ts': ['../report/words'],
  'orchestrator/src/build-tool/run.ts': [],
};

describe('the import rules', () => {
  it('let the layout as it is pass', async () => {
    expect(await violations(ALLOWED)).toEqual([]);
  });

  it('fail a new folder, named nowhere, that imports an adapter, starts a JVM or runs the build tool', async () => {
    const added = { ...ALLOWED, 'orchestrator/src/brand-new/thing.ts': ['../gradle/adapter', '../jvm/launch', '../build-tool/run'] };
    expect(await violations(added)).toEqual([
      'only-the-adapters-run-the-build-tool: orchestrator/src/brand-new/thing.ts → orchestrator/src/build-tool/run.ts',
      'only-the-adapters-start-jvms: orchestrator/src/brand-new/thing.ts → orchestrator/src/jvm/launch.ts',
      'only-the-cli-imports-the-adapters: orchestrator/src/brand-new/thing.ts → orchestrator/src/gradle/adapter.ts',
    ]);
  });

  it('fail the core importing an adapter, jvm/ importing an adapter, and one adapter importing the other', async () => {
    const added = {
      ...ALLOWED,
      'orchestrator/src/gate/run.ts': ['../report/words', '../maven/adapter'],
      'orchestrator/src/jvm/launch.ts': ['../report/words', '../gradle/adapter'],
      'orchestrator/src/maven/adapter.ts': ['../jvm/launch', '../build-tool/run', '../gradle/adapter'],
    };
    expect(await violations(added)).toEqual(
      expect.arrayContaining([
        'adapters-of-equal-rank: orchestrator/src/maven/adapter.ts → orchestrator/src/gradle/adapter.ts',
        'only-the-cli-imports-the-adapters: orchestrator/src/gate/run.ts → orchestrator/src/maven/adapter.ts',
        'only-the-cli-imports-the-adapters: orchestrator/src/jvm/launch.ts → orchestrator/src/gradle/adapter.ts',
      ]),
    );
  });

  it('fail a module at the root other than cli.ts that imports an adapter', async () => {
    expect(await violations({ ...ALLOWED, 'orchestrator/src/bin.ts': ['./gradle/adapter'] })).toEqual([
      'only-the-cli-imports-the-adapters: orchestrator/src/bin.ts → orchestrator/src/gradle/adapter.ts',
    ]);
  });

  it('fail the CLI importing the verdict API\'s code', async () => {
    const added = { ...ALLOWED, 'orchestrator/src/gate/run.ts': ['../report/words', '../../../verdict-api/src/db'], 'verdict-api/src/db.ts': [] };
    expect(await violations(added)).toEqual(['cli-uses-the-contract-only: orchestrator/src/gate/run.ts → verdict-api/src/db.ts']);
  });
});
