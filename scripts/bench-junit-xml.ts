// Benchmark of the first pass's JUnit XML reader on a hostile-size report: generates a report of
// --mb megabytes (default 500) in a temp dir, mostly system-out (a huge suite-level CDATA plus
// per-test output) around --cases test cases, then parses it in a child process and prints the
// wall time and the child's peak RSS. Imports the built orchestrator (npm run build first).
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';

const MB = 1024 * 1024;

function flag(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer`);
  return n;
}

/** Writes the report: `cases` testcases with 1 KiB of output each, the rest one suite-level CDATA. */
async function generate(file: string, totalBytes: number, cases: number): Promise<void> {
  const out = createWriteStream(file);
  let written = 0;
  const write = async (s: string) => {
    written += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="com.bench.HugeTest" tests="${cases}" skipped="0" failures="0" errors="0" time="1.0">\n<properties/>\n`);
  const perTestOut = 'log line with some text and numbers 0123456789 — ünïcödé\n'.repeat(17);
  for (let i = 0; i < cases; i++) {
    const failed = i % 1000 === 7;
    await write(
      `<testcase name="case${i}[${i % 7}: a=&quot;${i}&quot;]" classname="com.bench.HugeTest" time="0.00${i % 10}">` +
        (failed ? `<failure message="expected:&lt;1&gt; but was:&lt;2&gt;" type="java.lang.AssertionError">java.lang.AssertionError\n\tat x</failure>` : '') +
        `<system-out><![CDATA[${perTestOut}]]></system-out></testcase>\n`,
    );
  }
  await write('<system-out><![CDATA[');
  const block = 'INFO 2026-01-01T00:00:00Z com.bench.HugeTest - a chatty test writes this line again and again\n'.repeat(1024);
  const tail = '\n]]></system-out>\n<system-err><![CDATA[]]></system-err>\n</testsuite>\n';
  while (written + block.length + tail.length < totalBytes) await write(block);
  await write(tail);
  out.end();
  await once(out, 'finish');
}

/** The child: parses `file` and prints one JSON line. */
async function parseChild(file: string): Promise<void> {
  const { readJUnitXmlFile } = await import('../orchestrator/dist/first-pass/junit-xml.js');
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const started = process.hrtime.bigint();
  const r = await readJUnitXmlFile(file);
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(sampler);
  const maxRssKb = process.resourceUsage().maxRSS;
  process.stdout.write(
    `${JSON.stringify({ ok: r.ok, cases: r.ok ? r.cases.length : 0, failures: r.ok ? r.cases.filter((c) => c.status === 'failure').length : 0, error: r.ok ? null : r.error, wallMs, maxRssMb: maxRssKb / 1024, sampledPeakRssMb: peakRss / MB })}\n`,
  );
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--parse') return parseChild(argv[1]!);
  const mb = flag(argv, 'mb', 500);
  const cases = flag(argv, 'cases', 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'bench-junit-xml-'));
  try {
    const file = join(dir, 'TEST-com.bench.HugeTest.xml');
    const g0 = Date.now();
    await generate(file, mb * MB, cases);
    const size = statSync(file).size;
    console.log(`generated ${(size / MB).toFixed(0)} MB with ${cases.toLocaleString('en-US')} test cases in ${((Date.now() - g0) / 1000).toFixed(1)} s (${file})`);
    const self = fileURLToPath(import.meta.url);
    const child = spawnSync(process.execPath, [self, '--parse', file], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`the parsing child failed: ${child.stderr}`);
    const r = JSON.parse(child.stdout.trim().split('\n').pop()!);
    if (!r.ok) throw new Error(r.error);
    console.log(`parsed: ${r.cases.toLocaleString('en-US')} test cases (${r.failures} failed)`);
    console.log(`wall time: ${(r.wallMs / 1000).toFixed(2)} s (${(size / MB / (r.wallMs / 1000)).toFixed(0)} MB/s)`);
    console.log(`peak RSS of the parsing process: ${r.maxRssMb.toFixed(0)} MB (getrusage maxRSS; sampled every 50 ms: ${r.sampledPeakRssMb.toFixed(0)} MB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((e: Error) => {
  console.error(`bench-junit-xml: ${e.message}`);
  process.exit(1);
});
