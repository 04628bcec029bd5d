// The docs check: it passes on this repository's Markdown as built, and fails, naming the file and
// line, on each kind of broken reference in a small repository made for the test.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { anchorsOf, checkDocs, shellWords } from './check-docs.mjs';

let root;
const write = (rel, text) => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};
/** Pages the test repository links before they exist, as PENDING_PAGES lists another branch's. */
const PENDING = ['docs/security.md', 'docs/failure-evidence.md'];
/** The problems of one Markdown file in the test repository, its line numbers kept. */
const problemsOf = async (markdown) => {
  write('docs/under-test.md', markdown);
  const { problems } = await checkDocs(root, { files: ['docs/under-test.md'], pending: PENDING });
  return problems;
};

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'check-docs-'));
  write('package.json', JSON.stringify({ scripts: { build: 'tsc -b', test: 'jest', 'bench:real': 'node scripts/bench-real.js' } }));
  write('orchestrator/package.json', JSON.stringify({ scripts: { prepack: 'npm run build' } }));
  write('Makefile', '.PHONY: demo test\n\n## demo: the demo\ndemo: install\n\tbash scripts/demo.sh\n\ninstall:\n\tnpm ci\n');
  write('scripts/demo.sh', '#!/usr/bin/env bash\n');
  write('scripts/bench-real.ts', "process.env['STRESS_GATE_REAL'];\n");
  write('docs/other.md', '# Other page\n\n## A section: with `code`, punctuation!\n\n## Repeated\n\n## Repeated\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('check-docs', () => {
  it("passes on this repository's README and docs", async () => {
    const { problems, counts } = await checkDocs();
    expect(problems).toEqual([]);
    // It read what it claims to check.
    expect(counts.files).toBeGreaterThan(10);
    for (const kind of ['npm', 'make', 'paths', 'links', 'cli', 'envKeys']) expect({ kind, n: counts[kind] }).toEqual({ kind, n: expect.any(Number) });
    expect(Math.min(counts.npm, counts.make, counts.paths, counts.links, counts.cli, counts.envKeys)).toBeGreaterThan(5);
  });

  it('accepts references that resolve', async () => {
    const problems = await problemsOf(
      [
        '# Under test',
        '',
        'Run `npm run build`, `npm test`, `npm run -w orchestrator prepack`, `make demo SERVE=1` and `bash scripts/demo.sh`.',
        'The compiled-in-place `node scripts/bench-real.js`, [another page](other.md#a-section-with-code-punctuation),',
        '[its second heading](other.md#repeated-1), [this page](#under-test), [a pending page](security.md) and',
        '[the web](https://example.com/x.md). STRESS_GATE_REAL is read by the code.',
        '',
        '```sh',
        'npx stress-orchestrator gradle clean test --offline --stress-new-tests enforce --report-file "$work/r.json" -- --anything-verbatim',
        'npx stress-orchestrator mvn -B verify --stress-new-tests=report --skip-quarantine   # a comment: --not-checked',
        'make demo && npm run bench:real',
        '```',
        '',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
  });

  it.each([
    ['an npm script that does not exist', 'Run `npm run biuld` first.', 'docs/under-test.md:3: npm run biuld: no such script in package.json'],
    ["a workspace's npm script that does not exist", '`npm run -w orchestrator build`', 'docs/under-test.md:3: npm run build: no such script in orchestrator/package.json'],
    ['a make target that does not exist', '```sh\nmake demo tset\n```', 'docs/under-test.md:4: make tset: no such target in the Makefile'],
    ['a script file that does not exist', '`node scripts/bench-gone.js`', 'docs/under-test.md:3: scripts/bench-gone.js: no such file or folder'],
    ['a repository path that does not exist', 'See `verdict-api/src/nowhere.ts`.', 'docs/under-test.md:3: verdict-api/src/nowhere.ts: no such file or folder'],
    ['a relative link to a missing file', 'See [the guide](guide.md).', 'docs/under-test.md:3: guide.md: no such file'],
    ['a link to a missing heading', 'See [it](other.md#no-such-section).', 'docs/under-test.md:3: other.md#no-such-section: no heading "#no-such-section" in docs/other.md'],
    ['a link out of the repository', 'See [design](../../shared/DESIGN.md).', 'docs/under-test.md:3: ../../shared/DESIGN.md: points outside the repository'],
    ['a CLI flag the CLI does not know', '```sh\nnpx stress-orchestrator gradle test --stress-new-test report\n```', 'docs/under-test.md:4: stress-orchestrator … --stress-new-test: not an option of the CLI, nor a Gradle or Maven option it knows to pass on'],
    ['a mode the CLI does not know', '`stress-orchestrator gradle test --stress-new-tests warn`', 'docs/under-test.md:3: stress-orchestrator … --stress-new-tests warn: not a mode (report, enforce, off)'],
    ['a command the CLI refuses', '`npx stress-orchestrator sbt test`', 'docs/under-test.md:3: stress-orchestrator sbt test: the CLI refuses it: unknown command "sbt"; expected "gradle" or "mvn"'],
    ['an option without its value', '`npx stress-orchestrator gradle test --project`', 'docs/under-test.md:3: stress-orchestrator gradle test --project: the CLI refuses it: --project needs a value'],
    ['an environment key no code reads', 'Set STRESS_GATE_IMAGINARY=1.', 'docs/under-test.md:3: STRESS_GATE_IMAGINARY: no code reads this environment key'],
  ])('fails on %s, naming the file and line', async (_kind, line, problem) => {
    expect(await problemsOf(`# Under test\n\n${line}\n`)).toEqual([problem]);
  });

  it('allows a pending page to be missing, but not another page of the same folder', async () => {
    const problems = await problemsOf('# Under test\n\n[pending](security.md), [failure evidence](failure-evidence.md), [missing](insecurity.md)\n');
    expect(problems).toEqual(['docs/under-test.md:3: insecurity.md: no such file']);
  });
});

describe('its pieces', () => {
  it("computes GitHub's heading anchors", () => {
    expect([...anchorsOf(['The gate\'s own trouble never blocks', 'Load benchmark (`bench:load`)', 'JUnit 5 (the JUnit Platform) under Gradle', 'A', 'A'])]).toEqual([
      'the-gates-own-trouble-never-blocks',
      'load-benchmark-benchload',
      'junit-5-the-junit-platform-under-gradle',
      'a',
      'a-1',
    ]);
  });

  it('splits a command line as a shell would, dropping comments', () => {
    expect(shellWords(`npx x --a "b c" 'd' e#f # comment --g`)).toEqual(['npx', 'x', '--a', 'b c', 'd', 'e#f']);
  });
});
