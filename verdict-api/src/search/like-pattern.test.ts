import { describe, expect, it } from '@jest/globals';
import { sql } from '../sql/bind.js';
import { containsPattern } from './like-pattern.js';

describe('containsPattern', () => {
  it('wraps plain text in % and leaves it as it is', () => {
    expect(containsPattern('CheckoutTest')).toBe('%CheckoutTest%');
  });

  it('escapes the wildcards and the backslash, so each matches itself', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    expect(containsPattern('%')).toBe('%\\%%');
  });

  it('stays one escaped literal when bound, whatever the text holds', () => {
    expect(sql`x LIKE ${containsPattern("a'%_\\\n")}`.text).toBe("x LIKE '%a\\'\\\\%\\\\_\\\\\\\\\\n%'");
  });
});
