import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { reproduction, shellWord } from './reproduce-command.js';
import { parseArgs } from '../args/parse-args.js';
import { parseSelector, selected, selectorOf } from './test-selector.js';

const id = (module: string, suite: string, name: string) => ({ module, suite, name });

describe('test selectors', () => {
  it('select by module and full name, with * for any run of characters', () => {
    const sels = [parseSelector(':app shop.CheckoutTest.*'), parseSelector('shop.CartTest.adds(int, int)[3]')];
    expect(selected(sels, id(':app', 'shop.CheckoutTest', 'appliesDiscount'))).toBe(true);
    expect(selected(sels, id(':lib', 'shop.CheckoutTest', 'appliesDiscount'))).toBe(false);
    expect(selected(sels, id(':lib', 'shop.CartTest', 'adds(int, int)[3]'))).toBe(true);
    expect(selected(sels, id(':lib', 'shop.CartTest', 'adds(int, int)[2]'))).toBe(false);
    expect(selected([parseSelector('')], id(':', 'a', 'b'))).toBe(false);
  });

  it('name every identity exactly, odd characters included, and round-trip through the shell', () => {
    const odd = [id(':app', 'shop.CheckoutTest', "it's * 50% [off]\\now"), id(':', 'Root$Nested', 'greets `x`'), id(':app', 'a.B', 'adds[0: 1 + 1 = 2]')];
    for (const o of odd) {
      const selector = selectorOf(o);
      expect(selected([parseSelector(selector)], o)).toBe(true);
      expect(selected([parseSelector(selector)], { ...o, name: `${o.name}x` })).toBe(false);
      // What a shell gives the CLI back from the printed word is the selector itself.
      expect(execFileSync('sh', ['-c', `printf %s ${shellWord(selector)}`], { encoding: 'utf8' })).toBe(selector);
    }
  });

  it('keep a name with a newline, or white space at an end, on one line: those become * and still select it', () => {
    const o = id(':app', 'a.B', 'two\nlines ');
    expect(selectorOf(o)).toBe(':app a.B.two*lines*');
    expect(selected([parseSelector(selectorOf(o))], o)).toBe(true);
    expect(selected([parseSelector(selectorOf(o))], id(':app', 'a.B', 'other'))).toBe(false);
  });

  it('print the reproduce command: the launcher, the build tool, the test, then -- and the build arguments as the gate ran them', () => {
    const pkg = { kind: 'package', version: '0.1.0' } as const;
    expect(reproduction(['gradle'], ['test', '--offline'], id(':app', 'shop.CheckoutTest', 'appliesDiscount'), 50, pkg).reproduce).toBe(
      "npx -p @stress-gate/orchestrator@0.1.0 stress-orchestrator gradle --stress-tests ':app shop.CheckoutTest.appliesDiscount' --repetitions 50 -- test --offline",
    );
    expect(reproduction(['mvn'], ['-B', 'test'], id(':', 'shop.CartTest', 'adds(int, int)[3]'), 20, { kind: 'local' }).reproduce).toBe(
      "npx --no stress-orchestrator mvn --stress-tests 'shop.CartTest.adds(int, int)[3]' --repetitions 20 -- -B test",
    );
    // A build argument spelled like the CLI's own option goes to the build, after --.
    const r = reproduction(['gradle'], ['test', '--project', 'x'], id(':app', 'a.B', 'c'), 50, pkg);
    expect(r.reproduce).toMatch(/ -- test --project x$/);
    expect(r.reproduceParts).toEqual({ launcher: pkg, tool: ['gradle'], buildArgs: ['test', '--project', 'x'], repetitions: 50 });
    // No build arguments: no --.
    expect(reproduction(['gradle'], [], id(':app', 'a.B', 'c'), 50, pkg).reproduce).toMatch(/--repetitions 50$/);
  });

  it('the printed words parse back to the same test and build arguments', () => {
    const r = reproduction(['./mvnw', '--maven-executable', '/opt/maven/bin/mvn'], ['-Dx=--stress-tests', 'verify'], id(':core', 'a.B', 'c'), 7, { kind: 'local' });
    const words = execFileSync('sh', ['-c', `printf '%s\\0' ${r.reproduce}`], { encoding: 'utf8' }).split('\0').slice(0, -1);
    expect(words.slice(0, 3)).toEqual(['npx', '--no', 'stress-orchestrator']);
    const parsed = parseArgs(words.slice(3));
    expect(parsed).toMatchObject({ kind: 'maven', executable: './mvnw', buildArgs: ['-Dx=--stress-tests', 'verify'], flags: { stressTests: [':core a.B.c'], repetitions: '7', mavenExecutable: '/opt/maven/bin/mvn' } });
  });
});
