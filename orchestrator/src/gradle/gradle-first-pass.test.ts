import { describe, expect, it } from '@jest/globals';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fakeGradle, junitXml } from '../../test/support/fake-gradle.js';
import { silentLogger } from '../base/log.js';
import { readAheadPays, runGradleFirstPass } from './gradle-first-pass.js';

const S = 'com.shop.CheckoutTest';

async function firstPass(readAhead: boolean) {
  const gradle = await fakeGradle({
    firstPass: [{ suite: S, name: 'parsedEarly' }],
    after: async () => {
      const xml = path.join(gradle.dir, 'app/build/test-results/test/TEST-x.xml');
      // Gradle goes on after writing its reports (HTML report, build end): time to read ahead.
      const second = Math.floor(Date.now() / 1000) - 1; // whole seconds: utimes keeps them exactly
      await utimes(xml, second, second);
      await new Promise((r) => setTimeout(r, 600));
      // Rewritten at the same size and time: only a report parsed ahead can still say parsedEarly.
      await writeFile(xml, (await readFile(xml, 'utf8')).replace('parsedEarly', 'parsedLater'));
      await utimes(xml, second, second);
      expect((await stat(xml)).mtimeMs).toBe(second * 1000);
    },
  });
  const setup = await gradle.setup();
  const pass = await runGradleFirstPass(['test'], {
    runBuild: gradle.runner,
    executable: 'gradle',
    setup,
    projectDir: gradle.dir,
    env: {},
    isMuted: () => false,
    now: () => Date.now() - 60_000,
    logger: silentLogger(),
    readAhead,
  });
  return pass;
}

describe('runGradleFirstPass', () => {
  it('parses the reports while Gradle finishes when reading ahead, and reads them after it otherwise', async () => {
    expect((await firstPass(true)).cases.map((c) => c.name)).toEqual(['parsedEarly']);
    expect((await firstPass(false)).cases.map((c) => c.name)).toEqual(['parsedLater']);
    expect(junitXml([{ suite: S, name: 'parsedEarly' }]).length).toBe(junitXml([{ suite: S, name: 'parsedLater' }]).length);
  });

  it('reads ahead only with a core to spare beside Gradle\'s report rendering', () => {
    expect(readAheadPays(2)).toBe(false);
    expect(readAheadPays(4)).toBe(true);
  });
});
