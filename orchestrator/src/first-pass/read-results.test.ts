import { describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseWrittenReports, ParsedReports, readResults } from './read-results.js';
import { parseResultsLog, resultsLogPath } from '../gradle/results-log.js';

const xml = (name: string) => `<testsuite name="S"><testcase name="${name}" classname="S" time="0.1"/></testsuite>`;

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'read-results-'));
}

describe('readResults', () => {
  it('reads only files written since the run started and notes an up-to-date task', async () => {
    const dir = await tempDir();
    const fresh = path.join(dir, 'app');
    const stale = path.join(dir, 'lib');
    await mkdir(fresh);
    await mkdir(stale);
    await writeFile(path.join(fresh, 'TEST-S.xml'), xml('fresh'));
    await writeFile(path.join(stale, 'TEST-S.xml'), xml('old'));
    const old = new Date(Date.now() - 3_600_000);
    await utimes(path.join(stale, 'TEST-S.xml'), old, old);
    const r = await readResults(
      [
        { path: ':app:test', projectPath: ':app', name: 'test', junitXmlDir: fresh },
        { path: ':lib:test', projectPath: ':lib', name: 'test', junitXmlDir: stale },
        { path: ':none:test', projectPath: ':none', name: 'test', junitXmlDir: path.join(dir, 'missing') },
      ],
      Date.now() - 60_000,
    );
    expect(r.tasks).toEqual([{ task: ':app:test', module: ':app', cases: [{ suite: 'S', name: 'fresh', status: 'success', durationMs: 100 }] }]);
    expect(r.notes).toEqual([expect.stringMatching(/^:lib:test ran no tests in this build/)]);
    expect(r.errors).toEqual([]);
  });

  it('names a broken file and keeps reading the others', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'TEST-A.xml'), '<testsuite><testcase');
    await writeFile(path.join(dir, 'TEST-B.xml'), xml('b'));
    const r = await readResults([{ path: ':t', projectPath: ':', name: 't', junitXmlDir: dir }], 0);
    expect(r.errors).toEqual([expect.stringContaining(`${path.join(dir, 'TEST-A.xml')}: broken JUnit XML`)]);
    expect(r.tasks[0]!.cases.map((c) => c.name)).toEqual(['b']);
  });

  it('falls back to the plugin results log for a task that wrote no XML', async () => {
    const dir = await tempDir();
    const log = parseResultsLog(
      [
        '{"task":":app:test","className":"S","name":"a","displayName":"a","result":"SUCCESS","durationMs":4}',
        '{"task":":app:test","className":"S","name":"b","displayName":"b","result":"FAILURE","durationMs":5}',
        'not json',
        '{"task":":app:test","className":null,"name":"S","result":"SUCCESS"}',
        '',
      ].join('\n'),
    );
    expect(log.malformed).toBe(2);
    const r = await readResults([{ path: ':app:test', projectPath: ':app', name: 'test', junitXmlDir: path.join(dir, 'none') }], 0, log.byTask);
    expect(r.tasks[0]!.cases).toEqual([
      { suite: 'S', name: 'a', status: 'success', durationMs: 4 },
      { suite: 'S', name: 'b', status: 'failure', durationMs: 5 },
    ]);
    expect(r.notes).toEqual([":app:test wrote no JUnit XML; its 2 result(s) come from the plugin's test listener."]);
  });

  it('reads the log only when a task wrote no XML, and keeps file order while reading files side by side', async () => {
    const dir = await tempDir();
    const names = Array.from({ length: 30 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    // Sizes differ so reads finish out of order; the cases still come in file-name order.
    for (const [i, n] of names.entries()) await writeFile(path.join(dir, `TEST-${n}.xml`), `<testsuite name="S">${'<!-- pad -->'.repeat((30 - i) * 200)}<testcase name="${n}" classname="S"/></testsuite>`);
    let reads = 0;
    const lazyLog = async () => {
      reads++;
      return new Map([[':lib:test', [{ suite: 'L', name: 'logged', status: 'success' as const, durationMs: 1 }]]]);
    };
    const withXml = await readResults([{ path: ':app:test', projectPath: ':app', name: 'test', junitXmlDir: dir }], 0, lazyLog);
    expect(reads).toBe(0);
    expect(withXml.tasks[0]!.cases.map((c) => c.name)).toEqual(names);
    const both = await readResults(
      [
        { path: ':app:test', projectPath: ':app', name: 'test', junitXmlDir: dir },
        { path: ':lib:test', projectPath: ':lib', name: 'test', junitXmlDir: path.join(dir, 'none') },
      ],
      0,
      lazyLog,
    );
    expect(reads).toBe(1);
    expect(both.tasks.map((t) => [t.task, t.cases.length])).toEqual([
      [':app:test', 30],
      [':lib:test', 1],
    ]);
  });

  it('reads a report with a UTF-8 byte order mark, small or streamed', async () => {
    const dir = await tempDir();
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    await writeFile(path.join(dir, 'TEST-small.xml'), Buffer.concat([bom, Buffer.from(xml('smäll'))]));
    const big = `<testsuite name="S"><system-out><![CDATA[${'x'.repeat(2 * 1024 * 1024)}]]></system-out><testcase name="big" classname="S"/></testsuite>`;
    await writeFile(path.join(dir, 'TEST-zbig.xml'), Buffer.concat([bom, Buffer.from(big)]));
    const r = await readResults([{ path: ':t', projectPath: ':', name: 't', junitXmlDir: dir }], 0);
    expect(r.errors).toEqual([]);
    expect(r.tasks[0]!.cases.map((c) => c.name)).toEqual(['smäll', 'big']);
  });

  it('names the log as the plugin does', () => {
    expect(resultsLogPath('/x/manifest.json')).toBe('/x/manifest.results.jsonl');
  });

  it('takes a report parsed while Gradle ran only while the file is unchanged; one still being written is read at the end', async () => {
    const dir = await tempDir();
    const tasks = [{ path: ':app:test', projectPath: ':app', name: 'test', junitXmlDir: dir }];
    const a = path.join(dir, 'TEST-A.xml');
    const b = path.join(dir, 'TEST-B.xml');
    await writeFile(a, xml('first'));
    await writeFile(b, '<testsuite name="S"><testcase name="half'); // caught mid-write
    const parsed = new ParsedReports();
    const later = () => Date.now() + 1_000; // both files look settled
    await parseWrittenReports(tasks, 0, parsed, () => false, later);
    expect(parsed.size).toBe(1); // a broken (unfinished) report is never kept

    await writeFile(b, xml('second'));
    // Rewritten with another size: read again, not taken from what was parsed ahead.
    await writeFile(a, xml('rewritten'));
    const r = await readResults(tasks, 0, new Map(), parsed);
    expect(r.errors).toEqual([]);
    expect(r.tasks[0]!.cases.map((c) => c.name)).toEqual(['rewritten', 'second']);

    // Same size and modification time: the parsed report stands (this is the whole check).
    const second = Math.floor(Date.now() / 1000); // a whole second: utimes keeps it exactly
    await utimes(a, second, second);
    const parsedAgain = new ParsedReports();
    await parseWrittenReports(tasks, 0, parsedAgain, () => false, later);
    await writeFile(a, xml('rewrittex'));
    await utimes(a, second, second);
    expect((await stat(a)).mtimeMs).toBe(second * 1000);
    expect((await readResults(tasks, 0, new Map(), parsedAgain)).tasks[0]!.cases[0]!.name).toBe('rewritten');
    expect((await readResults(tasks, 0)).tasks[0]!.cases[0]!.name).toBe('rewrittex');
  });

  it('leaves a report younger than a moment for the next look, and stops between files when told', async () => {
    const dir = await tempDir();
    const tasks = [{ path: ':app:test', projectPath: ':app', name: 'test', junitXmlDir: dir }];
    await writeFile(path.join(dir, 'TEST-A.xml'), xml('a'));
    await writeFile(path.join(dir, 'TEST-B.xml'), xml('b'));
    const fresh = new ParsedReports();
    await parseWrittenReports(tasks, 0, fresh, () => false, () => Date.now() - 1_000);
    expect(fresh.size).toBe(0);
    const stopped = new ParsedReports();
    let looks = 0;
    await parseWrittenReports(tasks, 0, stopped, () => looks++ > 1, () => Date.now() + 1_000);
    expect(stopped.size).toBe(1);
  });
});
