// Drives the Hono app with app.request() against a real database, as a client would.
import { createAccount } from '../../src/accounts/accounts.js';
import { createProject } from '../../src/accounts/projects.js';
import { createToken } from '../../src/accounts/tokens.js';
import { createAdminCredential } from '../../src/accounts/admin-credentials.js';
import { createApp } from '../../src/http/app.js';
import type { AccountRate } from '../../src/limits/account-rate.js';
import { type Logger, silentLogger } from '../../src/log/logger.js';
import type { Database } from '../../src/storage/database.js';
import type { RunUpload } from '../../src/contract.js';
import type { Notifier } from '../../src/alerts/alert-event.js';
import type { Clock } from '../../src/clock/clock.js';
import { parseAllowList, type TargetPolicy } from '../../src/config/webhook-allow-list.js';

export interface ProjectHandle {
  handle: string;
  projectId: string;
  accountId: string;
  /** The project's CI token. */
  token: string;
  /** The account's admin credential. */
  admin: string;
}

/** Loopback receivers are what the webhook tests deliver to: allowed as an operator would (STRESS_GATE_WEBHOOK_ALLOW). */
export const LOOPBACK_TARGETS = parseAllowList('127.0.0.1/32');

export function testApp(db: Database, options: { notifier?: Notifier; clock?: Clock; operatorToken?: string; log?: Logger; webhookTargets?: TargetPolicy; accountRate?: AccountRate | null } = {}) {
  // Tests send their requests as fast as they can from one account: no rate limit unless asked for.
  const app = createApp({ db, log: silentLogger(), ready: async () => {}, accountRate: null, ...options });
  const call = async (method: string, path: string, token: string | null, body?: unknown) => {
    const res = await app.request(path, {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    // JSON answers are parsed; anything else (the run report's Markdown) comes back as { text }.
    const json = res.headers.get('content-type')?.includes('application/json') ?? false;
    return { status: res.status, body: text ? (json ? (JSON.parse(text) as Record<string, any>) : { text }) : null };
  };
  return { app, call };
}

export async function seedProject(db: Database, handle: string, options: { entitled?: boolean; defaultBranch?: string | null } = {}): Promise<ProjectHandle> {
  const account = await createAccount(db, `account of ${handle}`, options.entitled ?? true);
  const project = await createProject(db, { accountId: account.accountId, handle, defaultBranch: options.defaultBranch === undefined ? 'main' : options.defaultBranch });
  const { token } = await createToken(db, project.projectId, 'ci', 'default-branch');
  const { credential } = await createAdminCredential(db, account.accountId);
  return { handle, projectId: project.projectId, accountId: account.accountId, token, admin: credential };
}

export function run(runId: string, names: string[], extra: Partial<RunUpload> = {}): RunUpload {
  return {
    runId,
    branch: 'main',
    commit: 'c0ffee',
    isCi: true,
    status: 'success',
    durationMs: 1000,
    testCases: names.map((name) => ({ module: ':app', suite: 'com.example.CheckoutTest', name, status: 'success', durationMs: 12 })),
    ...extra,
  };
}

export const ids = (names: string[], durationMs = 12) => names.map((name) => ({ module: ':app', suite: 'com.example.CheckoutTest', name, durationMs }));
