// What `verdict-api demo` writes to its env file and prints: the first project under the keys every
// caller reads (STRESS_GATE_URL, STRESS_GATE_PROJECT, STRESS_GATE_TOKEN, …), and with several
// projects each one under its own keys too (STRESS_GATE_DEMO_<HANDLE>_…), so a script can run each
// build against its own project.
import { HANDLE_RE } from '../accounts/projects.js';

/** One demo project and the CI tokens issued for it at start. */
export interface DemoProject {
  handle: string;
  /** Its default-branch token (protected-branch jobs: their runs are history). */
  token: string;
  /** Its merge-request token (every other job). */
  mrToken: string;
}

/** The project handle the demo serves when no --project is given. */
export const DEFAULT_DEMO_PROJECT = 'demo';

/** The prefix of a project's own keys: `STRESS_GATE_DEMO_` and the handle upper-cased, each character that is not a letter or digit as `_`. */
export function demoKeyPrefix(handle: string): string {
  return `STRESS_GATE_DEMO_${handle.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** The handles the demo serves, in order: `demo` when none is given; an error message for a handle that is not one, a handle given twice, or two whose keys would be the same. */
export function demoHandles(given: readonly string[] | undefined): { handles: string[] } | { error: string } {
  const handles = given && given.length > 0 ? [...given] : [DEFAULT_DEMO_PROJECT];
  const byPrefix = new Map<string, string>();
  for (const handle of handles) {
    if (!HANDLE_RE.test(handle)) return { error: `demo: --project "${handle}" is not a handle: 1-64 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit` };
    const prefix = demoKeyPrefix(handle);
    const other = byPrefix.get(prefix);
    if (other !== undefined) {
      return { error: other === handle ? `demo: --project ${handle} is given twice` : `demo: --project ${other} and --project ${handle} would share the keys ${prefix}_…` };
    }
    byPrefix.set(prefix, handle);
  }
  return { handles };
}

/** A project's dashboard address: its runs. */
export function demoDashboardUrl(url: string, handle: string): string {
  return `${url}/projects/${encodeURIComponent(handle)}/runs`;
}

/** The env file's text: the first project's keys, the admin credential, and with more than one project each one's own keys. */
export function demoEnv(url: string, projects: readonly DemoProject[], adminCredential: string): string {
  const [first] = projects;
  if (!first) throw new Error('demoEnv: no project');
  const lines = [
    `STRESS_GATE_URL=${url}`,
    `STRESS_GATE_PROJECT=${first.handle}`,
    `STRESS_GATE_TOKEN=${first.token}`,
    `STRESS_GATE_MR_TOKEN=${first.mrToken}`,
    `STRESS_GATE_ADMIN_TOKEN=${adminCredential}`,
    `STRESS_GATE_DASHBOARD_URL=${demoDashboardUrl(url, first.handle)}`,
  ];
  if (projects.length > 1) {
    for (const p of projects) {
      const prefix = demoKeyPrefix(p.handle);
      lines.push(`${prefix}_PROJECT=${p.handle}`, `${prefix}_TOKEN=${p.token}`, `${prefix}_MR_TOKEN=${p.mrToken}`, `${prefix}_DASHBOARD_URL=${demoDashboardUrl(url, p.handle)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
