// The one place a write to a project's administration (settings, quarantine, webhooks) is authorized.
// Today every valid project token may write, as it may change settings. The issue that
// introduces an account's admin credential adds its check here and nowhere else; reads (the
// CI token fetching the quarantine list) never come through here.
import type { Principal } from './auth.js';

/** What an administrative write changes. */
export type AdminAction = 'settings.write' | 'quarantine.write' | 'webhooks.write' | 'webhooks.read';

/** Throws FORBIDDEN when `principal` may not perform `action` (never, yet). */
export function authorizeAdmin(principal: Principal, action: AdminAction): void {
  void principal;
  void action;
}
