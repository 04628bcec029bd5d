// Accounts own projects and carry the stress-gate entitlement (off unless granted).
import { randomUUID } from 'node:crypto';
import { VerdictApiError } from '../errors/errors.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

export interface Account {
  accountId: string;
  name: string;
  stressGateEntitled: boolean;
}

/** Creates an account; the stress-gate entitlement is off unless asked for. */
export async function createAccount(db: Database, name: string, entitled = false): Promise<Account> {
  const account = { accountId: randomUUID(), name, stressGateEntitled: entitled };
  await writeAccount(db, account);
  return account;
}

/** Turns the account's stress-gate entitlement on or off. */
export async function setEntitlement(db: Database, accountId: string, entitled: boolean): Promise<Account> {
  const account = await getAccount(db, accountId);
  if (!account) throw new VerdictApiError('NOT_FOUND', `no account ${accountId}`, 'accountId');
  const next = { ...account, stressGateEntitled: entitled };
  await writeAccount(db, next);
  return next;
}

async function writeAccount(db: Database, a: Account): Promise<void> {
  await db.engine.insert(db.t('accounts'), [
    {
      account_id: a.accountId,
      name: a.name,
      stress_gate_entitled: a.stressGateEntitled ? 1 : 0,
      created_at: formatDateTime(new Date()),
      version: nextVersion(),
    },
  ]);
}

/** An account (read through the authentication cache: storage/read-cache.ts). */
export async function getAccount(db: Database, accountId: string): Promise<Account | null> {
  return (await db.cache.auth.get(`account ${accountId}`, async () => {
    const rows = await db.engine.query<{ account_id: string; name: string; stress_gate_entitled: unknown }>(
      sql`SELECT account_id, name, stress_gate_entitled FROM ${db.t('accounts')} FINAL WHERE account_id = ${uuid(accountId)}`,
    );
    const r = rows[0];
    return r ? { accountId: r.account_id, name: r.name, stressGateEntitled: num(r.stress_gate_entitled) === 1 } : null;
  })) as Account | null;
}

