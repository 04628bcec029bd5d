// The order probe's scenario, the same through real Gradle and real Maven (order-probe-*.test.ts):
// main has old tests of CartTest that read or write a shared static, and OtherTest; a branch adds a
// victim (it passes alone and in the build's own order, and fails right after an old test that
// leaves the static behind), a polluter (it passes, and an old test fails right after it) and a
// stable test. The build runs each class's methods in a fixed order (JUnit 4 NAME_ASCENDING,
// Jupiter MethodName, TestNG priority) in which every test passes.
import { expect } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

/** This checkout's CLI. */
const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));

/** Runs a printed command as printed in `dir` (its `npx … stress-orchestrator` is this checkout's CLI), with no server configured. */
export async function asPrinted(dir: string, command: string, tmp: string): Promise<{ code: number | undefined; out: string; err: string }> {
  const shell = command.replace(/^npx (?:(?:--no|-p \S+) )?stress-orchestrator /, `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} `);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, JAVA_HOME: process.env.JAVA_HOME, TMPDIR: tmp };
  const r = await execa('sh', ['-c', shell], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
}

export type Framework = 'junit4' | 'jupiter' | 'testng';

/** Names of the scenario's tests, per framework. */
export interface OrderNames {
  victim: string;
  polluter: string;
  /** The old test the polluter breaks. */
  broken: string;
  /** The old test the victim fails after. */
  partner: string;
  stable: string;
}

const REGISTRY = 'package shop;\npublic class Registry { public static String owner; public static String mode; }\n';

const SOURCES: Record<Framework, { header: string; test: (order: string, body: string) => string; other: string; names: OrderNames; null: (what: string, message: string) => string; equal: string }> = {
  junit4: {
    header: 'import org.junit.*;\nimport org.junit.runners.MethodSorters;\n@FixMethodOrder(MethodSorters.NAME_ASCENDING)\npublic class CartTest {',
    test: (name, body) => `  @Test public void ${name}() { ${body} }`,
    other: 'package shop;\npublic class OtherTest { @org.junit.Test public void works() {} }\n',
    names: { victim: 'a_needsNoOwner', polluter: 'z_setsMode', broken: 'b_defaultMode', partner: 'm_claimsOwner', stable: 'd_stable' },
    null: (what, message) => `Assert.assertNull("${message}", ${what});`,
    equal: 'Assert.assertEquals(6, 3 + 3);',
  },
  jupiter: {
    header: 'import static org.junit.jupiter.api.Assertions.*;\nimport org.junit.jupiter.api.*;\n@TestMethodOrder(MethodOrderer.MethodName.class)\nclass CartTest {',
    test: (name, body) => `  @Test void ${name}() { ${body} }`,
    other: 'package shop;\nclass OtherTest { @org.junit.jupiter.api.Test void works() {} }\n',
    names: { victim: 'a_needsNoOwner', polluter: 'z_setsMode', broken: 'b_defaultMode', partner: 'm_claimsOwner', stable: 'd_stable' },
    null: (what, message) => `assertNull(${what}, "${message}");`,
    equal: 'assertEquals(6, 3 + 3);',
  },
  testng: {
    header: 'import org.testng.Assert;\nimport org.testng.annotations.Test;\npublic class CartTest {',
    // The priority is the name's order in the build: needsNoOwner 1, defaultMode 2, stable 3, claimsOwner 5, setsMode 9.
    test: (name, body) => `  @Test(priority = ${{ needsNoOwner: 1, defaultMode: 2, stable: 3, claimsOwner: 5, setsMode: 9 }[name]}) public void ${name}() { ${body} }`,
    other: 'package shop;\npublic class OtherTest { @org.testng.annotations.Test public void works() {} }\n',
    names: { victim: 'needsNoOwner', polluter: 'setsMode', broken: 'defaultMode', partner: 'claimsOwner', stable: 'stable' },
    null: (what, message) => `Assert.assertNull(${what}, "${message}");`,
    equal: 'Assert.assertEquals(3 + 3, 6);',
  },
};

/** main's and the branch's test sources of `framework` under `dir` (e.g. `app/src/test/java/shop/`), and the test names. */
export function orderScenario(framework: Framework, dir: string): { main: Record<string, string>; feature: Record<string, string>; names: OrderNames } {
  const s = SOURCES[framework];
  const n = s.names;
  const old = [s.test(n.partner, 'Registry.owner = "cart";'), s.test(n.broken, s.null('Registry.mode', 'mode was set by a test before this one'))];
  const added = [s.test(n.victim, s.null('Registry.owner', 'owner left by another test')), s.test(n.stable, s.equal), s.test(n.polluter, 'Registry.mode = "fast";')];
  const cart = (tests: string[]) => `package shop;\n${s.header}\n${tests.join('\n')}\n}\n`;
  return {
    main: { [`${dir}Registry.java`]: REGISTRY, [`${dir}CartTest.java`]: cart(old), [`${dir}OtherTest.java`]: s.other },
    feature: { [`${dir}CartTest.java`]: cart([...old, ...added]) },
    names: n,
  };
}

interface Finding { role: string; other: { suite: string; name: string }; otherPassesAlone: boolean | null; replays: number; replayFailures: number; reproduce: string; evidence: { message: string | null } }
/** A candidate of the JSON report, with its probe. */
export interface ProbedCandidate { name: string; outcome: string; orderProbe?: { status: string; seed: number; findings: Finding[]; partners: number; partnersRun: number; notes: string[] } }

/** What a gate run in enforce on the branch must say: the victim and the polluter blocked with their pairs and the seed, the stable test probed and clean. */
export function expectOrderFindings(r: { code: number | undefined; out: string; err: string; report: { orderProbe: { seed: number }; candidates: ProbedCandidate[] } }, n: OrderNames): { victim: ProbedCandidate; polluter: ProbedCandidate } {
  const context = `${r.out}\n${r.err.slice(-3000)}`;
  expect({ code: r.code, context }).toEqual({ code: 1, context });
  const byName = new Map(r.report.candidates.map((c) => [c.name, c]));
  const victim = byName.get(n.victim)!;
  expect({ outcome: victim.outcome, probe: victim.orderProbe }).toMatchObject({ outcome: 'order_dependent' });
  expect(victim.orderProbe!.findings).toEqual([expect.objectContaining({ role: 'victim', other: expect.objectContaining({ suite: 'shop.CartTest', name: n.partner }), otherPassesAlone: null, replays: 2, replayFailures: 2 })]);
  expect(victim.orderProbe!.findings[0]!.evidence.message).toContain('owner left by another test');
  const polluter = byName.get(n.polluter)!;
  expect({ outcome: polluter.outcome, probe: polluter.orderProbe }).toMatchObject({ outcome: 'order_dependent' });
  expect(polluter.orderProbe!.findings).toEqual([expect.objectContaining({ role: 'polluter', other: expect.objectContaining({ suite: 'shop.CartTest', name: n.broken }), otherPassesAlone: true, replays: 2, replayFailures: 2 })]);
  expect(polluter.orderProbe!.findings[0]!.evidence.message).toContain('mode was set by a test before this one');
  // The stable test ran beside every partner (its class's four other tests and OtherTest.works),
  // none left out as unselectable. A pair that failed in its shared JVM only (the victim after the
  // partner ran earlier there) is a note, never a finding.
  const stable = byName.get(n.stable)!;
  expect(stable.outcome).toBe('passed');
  expect(stable.orderProbe).toMatchObject({ status: 'probed', findings: [], partners: 5, partnersRun: 5 });
  expect(stable.orderProbe!.notes.filter((x) => x.includes('did not run'))).toEqual([]);
  // The seed is in the report, the same for every candidate of the run.
  const seed = r.report.orderProbe.seed;
  expect([victim, polluter, stable].map((c) => c.orderProbe!.seed)).toEqual([seed, seed, seed]);
  const flat = r.out.replace(/\s+/g, ' ');
  expect(flat).toContain(`Order probe (seed ${seed}): 3 new tests`);
  expect(flat).toContain(`CartTest.${n.victim} is order-dependent: it passed every repetition alone, and fails right after CartTest.${n.partner} (2 of 2 fresh JVMs`);
  expect(flat).toContain(`CartTest.${n.polluter} is order-dependent: it breaks CartTest.${n.broken}, an existing test`);
  expect(flat).toContain('It blocked this merge request.');
  expect(r.err).toMatch(/stress-gate: order probe: 3 new tests, .* within its budget of/);
  expect(r.err).not.toContain('was not uploaded');
  return { victim, polluter };
}

/** The stored run as the server shows it names each order-dependent test and its pair. */
export async function expectStored(api: { url: string; project: string; token: string }, runId: string, n: OrderNames): Promise<void> {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
  expect(res.status).toBe(200);
  const stored = JSON.stringify(await res.json());
  expect(stored).toContain('"outcome":"order_dependent"');
  expect(stored).toContain(n.partner);
  expect(stored).toContain(n.broken);
}

/** Each printed command, run as printed with no server, runs exactly that order and fails; the victim's pair reversed passes. */
export async function expectReplays(asPrinted: (command: string) => Promise<{ code: number | undefined; out: string; err: string }>, found: { victim: ProbedCandidate; polluter: ProbedCandidate }, n: OrderNames): Promise<void> {
  const victimCommand = found.victim.orderProbe!.findings[0]!.reproduce;
  const victimRun = await asPrinted(victimCommand);
  expect({ code: victimRun.code, out: victimRun.out, err: victimRun.err.slice(-2000) }).toMatchObject({ code: 1 });
  expect(victimRun.out).toMatch(new RegExp(`1\\. shop\\.CartTest\\.${n.partner} +passed[\\s\\S]*2\\. shop\\.CartTest\\.${n.victim} +FAILED`));
  expect(victimRun.out).toContain('owner left by another test');
  const polluterRun = await asPrinted(found.polluter.orderProbe!.findings[0]!.reproduce);
  expect({ code: polluterRun.code, out: polluterRun.out, err: polluterRun.err.slice(-2000) }).toMatchObject({ code: 1 });
  expect(polluterRun.out).toMatch(new RegExp(`1\\. shop\\.CartTest\\.${n.polluter} +passed[\\s\\S]*2\\. shop\\.CartTest\\.${n.broken} +FAILED`));
  expect(polluterRun.out).toContain('mode was set by a test before this one');
  // The reverse order passes: the command names exactly the order that fails.
  const reverse = victimCommand.replace(/--run-order ('[^']*'|\S+) --run-order ('[^']*'|\S+)/, '--run-order $2 --run-order $1');
  expect(reverse).not.toBe(victimCommand);
  const reversed = await asPrinted(reverse);
  expect({ code: reversed.code, out: reversed.out, err: reversed.err.slice(-2000) }).toMatchObject({ code: 0 });
  expect(reversed.out).toMatch(new RegExp(`1\\. shop\\.CartTest\\.${n.victim} +passed[\\s\\S]*2\\. shop\\.CartTest\\.${n.partner} +passed`));
  expect(reversed.out).toContain('Every test passed in this order.');
}
