// The one place a call is checked against what its credential may do. A project's CI token
// uploads runs, asks the verdict, uploads the gate, reads the quarantine list and reads back the
// runs it uploaded (the CLI prints their page and posts their report); every other action needs
// an account's admin credential (API or signed-in dashboard) or the operator's.
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
  | 'ramp.read';

/** Throws FORBIDDEN when `principal` may not perform `action` (a CI token never may). */
export function authorizeAdmin(principal: Pick<Principal, 'credential'>, action: AdminAction): void {
  if (principal.credential === 'admin' || principal.credential === 'operator') return;
  throw new VerdictApiError('FORBIDDEN', `${action}: needs an account admin credential; a project's CI token only uploads runs, asks the verdict, uploads the gate and reads the quarantine list`, 'Authorization');
}
