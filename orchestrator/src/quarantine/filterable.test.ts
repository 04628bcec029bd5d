import { describe, expect, it } from '@jest/globals';
import { filterable } from './filterable.js';

const t = (suite: string, name: string) => ({ module: ':app', suite, name });

describe('filterable skipped identities', () => {
  it('takes plain class names, nested classes and parameterised invocation names', () => {
    expect(filterable(t('com.shop.CheckoutTest', 'appliesDiscount'))).toBe(true);
    expect(filterable(t('com.shop.Outer$Inner', 'works'))).toBe(true);
    expect(filterable(t('com.shop.ParamTest', 'adds(int, int)[1]'))).toBe(true);
    expect(filterable(t('com.shöp.ÜberTest', 'grüßt'))).toBe(true);
  });

  it('refuses newlines, wildcards, patterns and separators', () => {
    for (const [suite, name] of [
      ['com.x.A\n**/*\nx', 'm'],
      ['*', '*'],
      ['com.x.A', 'clears*'],
      ['com.x.A', 'a\nb'],
      ['%regex[.*]', 'm'],
      ['!com.x.A', 'm'],
      ['com/x/A', 'm'],
      ['com.x.A', 'm?'],
      ['com..A', 'm'],
      ['', 'm'],
    ]) expect([suite, name, filterable(t(suite!, name!))]).toEqual([suite, name, false]);
  });
});
