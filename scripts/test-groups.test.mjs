import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALONE, MAVEN, pattern } from './test-groups.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const integrationFiles = ['orchestrator', 'verdict-api'].flatMap((ws) =>
  readdirSync(join(root, ws, 'test/integration')).filter((f) => f.endsWith('.test.ts')).map((f) => `${ws}/test/integration/${f}`),
);
/** Runs Maven itself, or through a support module that does. */
const runsMaven = (file) => {
  const text = readFileSync(join(root, file), 'utf8');
  return /execa\(\s*'mvn'|spawn\(\s*'mvn'|support\/(maven-project|build-shapes|gradle-jars)\.js/.test(text);
};

describe('the test groups', () => {
  it('name files that exist, each in one group', () => {
    for (const f of [...MAVEN, ...ALONE]) expect([f, existsSync(join(root, f))]).toEqual([f, true]);
    expect(MAVEN.filter((f) => ALONE.includes(f))).toEqual([]);
  });

  it('hold every file that runs Maven in the Maven group, so that two never run at once', () => {
    expect(integrationFiles.filter(runsMaven).filter((f) => !MAVEN.includes(f))).toEqual([]);
  });

  it('make a pattern that matches exactly the files named', () => {
    const re = new RegExp(pattern(MAVEN));
    expect(integrationFiles.filter((f) => re.test(`/work/x/${f}`)).sort()).toEqual([...MAVEN].sort());
    expect(re.test('/work/x/orchestrator/test/integration/maven-end-to-end.test.tsx')).toBe(false);
  });
});
