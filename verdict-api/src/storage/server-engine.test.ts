import { describe, expect, it } from '@jest/globals';
import { ClickHouseError } from '@clickhouse/client';
import { clickHouseCode } from './server-engine.js';

describe('clickHouseCode', () => {
  it("reads the client's typed error (a newer server's error names its type)", () => {
    expect(clickHouseCode(new ClickHouseError({ message: 'Table is in readonly mode', code: '242', type: 'TABLE_IS_READ_ONLY' }))).toBe(242);
  });

  it('reads the code 18.16 prints first, which the client cannot type', () => {
    expect(clickHouseCode(new Error('Code: 279, e.displayText() = DB::NetException: All connection tries failed. Log: \n\nCode: 210, …'))).toBe(279);
  });

  it('is null for an error that is not ClickHouse speaking', () => {
    expect(clickHouseCode(new Error('connect ECONNREFUSED 127.0.0.1:8123'))).toBeNull();
    expect(clickHouseCode(new Error('Timeout error.'))).toBeNull();
  });
});
