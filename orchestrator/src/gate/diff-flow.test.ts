// The gate's flow with the merge request's diff (real git in the fake Gradle project, fake
// verdict API): a modified test joins the new ones, and is left out, said, and never passed when
// with it the candidate cap would refuse the whole pass.
import { describe, expect, it } from '@jest/globals';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { cannedVerdict } from '../../test/support/fake-verdict-server.js';
import { isNew, run } from '../../test/support/gate-harness.js';

const source = (oldBody: string) => `package com.shop;
import org.junit.Test;
public class CheckoutTest {
  @Test public void old() { ${oldBody} }
  @Test public void appliesDiscount() {}
  @Test public void clearsCart() {}
  @Test public void ignored() {}
}
`;

/** The project a repository whose main has CheckoutTest, on a branch that changes one line of old(). */
async function repository(dir: string): Promise<void> {
  const git = (...args: string[]) => execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdin: 'ignore' });
  const file = path.join(dir, 'src/test/java/com/shop/CheckoutTest.java');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, source('int a = 1;'));
  await writeFile(path.join(dir, '.gitignore'), '*\n!src/\n!src/**\n!.gitignore\n');
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-qm', 'main');
  await git('checkout', '-qb', 'feature');
  await writeFile(file, source('int a = 2;'));
}

const withCap = (cap: number) => (posted: never[]) => {
  const v = cannedVerdict(posted, isNew);
  return { ...v, parameters: { ...v.parameters, candidateCap: cap }, guards: { ...v.guards, candidateCap: { ...v.guards.candidateCap, cap, fired: v.guards.candidateCap.count > cap } } };
};

describe('the gate with the merge request diff', () => {
  it('stresses a modified test beside the new ones, labelled', async () => {
    const r = await run(['--stress-new-tests', 'report'], { prepare: repository, realGit: true, env: { STRESS_GATE_BASE_REF: 'main' } });
    expect(r.report.candidates.map((c: { name: string; origin?: string; outcome: string }) => `${c.name} ${c.origin ?? 'new'} ${c.outcome}`)).toEqual(['appliesDiscount new passed', 'clearsCart new passed', 'old modified passed']);
    expect(r.flat).toContain('CheckoutTest.old — modified');
  }, 60_000);

  it('leaves the modified test out, and says so, when with it the candidate cap would refuse the whole pass', async () => {
    const r = await run(['--stress-new-tests', 'report'], { prepare: repository, realGit: true, env: { STRESS_GATE_BASE_REF: 'main' }, verdict: withCap(2) });
    const byName = Object.fromEntries(r.report.candidates.map((c: { name: string; outcome: string; why: string | null }) => [c.name, c]));
    expect(byName['appliesDiscount'].outcome).toBe('passed');
    expect(byName['clearsCart'].outcome).toBe('passed');
    expect(byName['old']).toMatchObject({ outcome: 'not_stressed', origin: 'modified' });
    expect(r.report).toMatchObject({ outcome: 'incomplete', guard: null });
    expect(r.flat).toContain('1 modified test was not stressed: with the modified tests, the candidate-cap guard would have refused the whole pass');
    expect(r.flat).not.toContain('ceiling cut');
  }, 60_000);
});
