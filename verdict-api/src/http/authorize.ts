// The one place a call is checked against what its credential may do. A project's CI token
// uploads runs, asks the verdict, uploads the gate, reads the quarantine list and reads back the
// runs it uploaded (the CLI prints their page and posts their report). A project's viewer
// credential reads: runs, test cases, flaky tests, the quarantine list, the ramp; it never writes
// (project-auth.ts refuses its every other method before a body is read). Every other action
// needs an account's admin credential (API or signed-in dashboard) or the operator's.
import { VerdictApiError } from '../errors/errors.js';
import type { Principal } from '../accounts/principal.js';

/** What an administrative call reads or changes. */
export type AdminAction =
  | 'settings.read'
  | 'settings.write'
  | 'quarantine.write'
  | 'webhooks.write'
  | 'webhooks.read'
  | 'tokens.read'
  | 'tokens.write'
  | 'flakiness.read'
  | 'test-cases.read'
  | 'runs.list'
  | 'ramp.read'
  | 'viewers.read'
  | 'viewers.write';

/** What a viewer may do of the above: read what the project's runs and tests say. */
export const VIEWER_ACTIONS: ReadonlySet<AdminAction> = new Set<AdminAction>(['flakiness.read', 'test-cases.read', 'runs.list', 'ramp.read']);

/** Throws FORBIDDEN when `principal` may not perform `action` (a CI token never may; a viewer only reads, VIEWER_ACTIONS). */
export function authorizeAdmin(principal: Pick<Principal, 'credential'>, action: AdminAction): void {
  if (principal.credential === 'admin' || principal.credential === 'operator') return;
  if (principal.credential === 'viewer') {
    if (VIEWER_ACTIONS.has(action)) return;
    throw new VerdictApiError('FORBIDDEN', `${action}: needs an account admin credential; a viewer credential only reads runs, test cases, flaky tests, the quarantine list and the ramp`, 'Authorization');
  }
  throw new VerdictApiError('FORBIDDEN', `${action}: needs an account admin credential; a project's CI token only uploads runs, asks the verdict, uploads the gate and reads the quarantine list`, 'Authorization');
}

/** Throws FORBIDDEN for a viewer's request that is not a read (GET or HEAD): it uploads, asks and changes nothing. */
export function refuseViewerWrite(principal: Pick<Principal, 'credential'>, method: string): void {
  if (principal.credential !== 'viewer' || method === 'GET' || method === 'HEAD') return;
  throw new VerdictApiError('FORBIDDEN', `${method}: a viewer credential only reads; uploads, verdicts and changes need a CI token or an account admin credential`, 'Authorization');
}
