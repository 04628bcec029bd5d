// Modified and renamed tests through real parts (diff-*.test.ts): a git repository whose main has
// CartTest (total, discount, toMove, renameAndChange) and ServiceTest (answers); a merge request
// that changes one line inside discount (which makes it flaky), renames ServiceTest to
// BillingServiceTest, moves toMove to OtherTest, renames renameAndChange to renamedChanged and
// changes its body, and adds added. The same scenario on Gradle (JUnit 4) and Maven (Jupiter).
import { expect } from '@jest/globals';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { writeFiles } from './fixture-project.js';

export type DiffFramework = 'junit4' | 'jupiter';

const FLAKY = `package shop;
public class Flaky {
  /** How many times \`name\` ran in this build's test JVMs before (0 the first time), under a file lock. */
  public static int bump(String name) throws Exception {
    java.io.File f = new java.io.File(System.getProperty("fixture.dir"), name + ".count");
    f.getAbsoluteFile().getParentFile().mkdirs();
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(f.toPath(),
            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE);
         java.nio.channels.FileLock lock = ch.lock()) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(32);
      int read = ch.read(buf, 0);
      String text = read <= 0 ? "" : new String(buf.array(), 0, read).trim();
      int n = text.isEmpty() ? 0 : Integer.parseInt(text);
      ch.truncate(0);
      ch.write(java.nio.ByteBuffer.wrap(String.valueOf(n + 1).getBytes()), 0);
      return n;
    }
  }
}
`;

const STYLE: Record<DiffFramework, { imports: string; test: string; cls: string; eq: (a: string, b: string) => string; yes: (a: string) => string }> = {
  junit4: { imports: 'import org.junit.Assert;\nimport org.junit.Test;\n', test: '@Test public void', cls: 'public class', eq: (a, b) => `Assert.assertEquals(${a}, ${b});`, yes: (a) => `Assert.assertTrue(${a});` },
  jupiter: { imports: 'import static org.junit.jupiter.api.Assertions.*;\nimport org.junit.jupiter.api.Test;\n', test: '@Test void', cls: 'class', eq: (a, b) => `assertEquals(${a}, ${b});`, yes: (a) => `assertTrue(${a});` },
};

/** main's files and the merge request's (a file mapped to null is deleted), under `dir` (e.g. `app/src/test/java/shop/`). */
export function diffScenario(framework: DiffFramework, dir: string): { main: Record<string, string>; feature: Record<string, string | null> } {
  const s = STYLE[framework];
  const cls = (name: string, methods: string[]) => `package shop;\n\n${s.imports}\n${s.cls} ${name} {\n${methods.join('\n\n')}\n}\n`;
  const total = `  ${s.test} total() {\n    ${s.eq('4', '2 + 2')}\n  }`;
  const discount = (price: string) => `  /** The discount. */\n  ${s.test} discount() throws Exception {\n    int price = ${price};\n    ${s.eq('90', 'price - 10')}\n  }`;
  const toMove = `  ${s.test} toMove() {\n    String word = "moved";\n    ${s.eq('5', 'word.length()')}\n  }`;
  const renameAndChange = (name: string, body: string) => `  ${s.test} ${name}() {\n    ${s.yes(body)}\n  }`;
  const answers = `  ${s.test} answers() {\n    ${s.eq('"ok"', '"o" + "k"')}\n  }`;
  const added = `  ${s.test} added() {\n    ${s.eq('3', '"abc".length()')}\n  }`;
  return {
    main: {
      [`${dir}Flaky.java`]: FLAKY,
      [`${dir}CartTest.java`]: cls('CartTest', [total, discount('100'), toMove, renameAndChange('renameAndChange', '"abc".startsWith("a")')]),
      [`${dir}ServiceTest.java`]: cls('ServiceTest', [answers]),
    },
    feature: {
      // One line of discount changes: it now fails every other time it runs.
      [`${dir}CartTest.java`]: cls('CartTest', [total, discount('Flaky.bump("discount") % 2 == 1 ? 99 : 100'), renameAndChange('renamedChanged', '"abc".endsWith("c")'), added]),
      [`${dir}ServiceTest.java`]: null,
      [`${dir}BillingServiceTest.java`]: cls('BillingServiceTest', [answers]),
      [`${dir}OtherTest.java`]: cls('OtherTest', [toMove]),
    },
  };
}

/** Runs git in `dir` with a fixed author. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const r = await execa('git', ['-c', 'user.name=Gate Test', '-c', 'user.email=gate@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdin: 'ignore' });
  return String(r.stdout);
}

/** Makes `dir` (holding main's files) a repository with main committed, then the merge request on branch `feature` (checked out). */
export async function commitScenario(dir: string, feature: Record<string, string | null>, ignore: string): Promise<void> {
  await writeFiles(dir, { '.gitignore': ignore });
  await git(dir, 'init', '-q');
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'main');
  await git(dir, 'checkout', '-q', '-b', 'feature');
  for (const [file, content] of Object.entries(feature)) if (content === null) await rm(path.join(dir, file));
  await writeFiles(dir, Object.fromEntries(Object.entries(feature).filter((e): e is [string, string] => e[1] !== null)));
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'feature');
}

interface JsonCandidate { suite: string; name: string; outcome: string; origin?: string; failures: number }
/** The JSON report's parts these tests read. */
export interface DiffReport {
  outcome: string;
  candidates: JsonCandidate[];
  renamed?: { suite: string; name: string; from: { suite: string; name: string } }[];
  diff?: { status: string; why: string | null; dayOne: boolean; fetched: boolean; added: number; modified: number } | null;
  wouldHaveBlocked: boolean;
  blocked: boolean;
}

/** The candidates as "Class.name origin outcome". */
export function candidateLines(report: DiffReport): string[] {
  return report.candidates.map((c) => `${c.suite.replace(/^shop\./, '')}.${c.name} ${c.origin ?? 'new'} ${c.outcome}`).sort();
}

/** The renamed tests as "Class.name <- Class.name". */
export function renamedLines(report: DiffReport): string[] {
  return (report.renamed ?? []).map((t) => `${t.suite.replace(/^shop\./, '')}.${t.name} <- ${t.from.suite.replace(/^shop\./, '')}.${t.from.name}`).sort();
}

/** With history on main: discount is modified and caught, the renames are not stressed, the changed rename and the added test are. */
export function expectModifiedAndRenamed(r: { report: DiffReport; out: string }): void {
  expect(r.report.diff).toMatchObject({ status: 'analysed', dayOne: false });
  expect(candidateLines(r.report)).toEqual(['CartTest.added new passed', 'CartTest.discount modified failed', 'CartTest.renamedChanged new passed']);
  expect(renamedLines(r.report)).toEqual(['BillingServiceTest.answers <- ServiceTest.answers', 'OtherTest.toMove <- CartTest.toMove']);
  expect(r.out).toContain('— modified');
  expect(r.out).toMatch(/BillingServiceTest\.answers\S* was not stressed: renamed from \S*ServiceTest\.answers/);
}
