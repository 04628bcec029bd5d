import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { reproduceCommand, shellQuote } from './reproduce-command.js';
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
      expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(selector)}`], { encoding: 'utf8' })).toBe(selector);
    }
  });

  it('print the reproduce command with the build tool and arguments as the gate ran them', () => {
    expect(reproduceCommand(['gradle'], ['test', '--offline'], id(':app', 'shop.CheckoutTest', 'appliesDiscount'))).toBe(
      "npx stress-orchestrator gradle test --offline --stress-tests ':app shop.CheckoutTest.appliesDiscount' --repetitions 50",
    );
    expect(reproduceCommand(['mvn'], ['-B', 'test'], id(':', 'shop.CartTest', 'adds(int, int)[3]'), 20)).toBe("npx stress-orchestrator mvn -B test --stress-tests 'shop.CartTest.adds(int, int)[3]' --repetitions 20");
  });
});
