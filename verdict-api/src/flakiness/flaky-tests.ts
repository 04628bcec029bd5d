// The project's flaky tests: a consumer that ATTRIBUTES flakiness to a test across runs, so it
// reads organic evidence only. A stress pass is solicited evidence (a gated observation):
// counting it here would mark tests flaky project-wide in report mode, where the author was
// told nothing would happen yet.
import type { Project } from '../accounts/projects.js';
import { identitiesOf } from '../catalogue/test-case-identities.js';
import { DAY_MS } from '../clock/clock.js';
import type { Database } from '../storage/database.js';
import { windowDays } from './evaluate-marks.js';
import { commitKey, type FlakyEvidence, flakyEvidence } from './flaky-evidence.js';
import { marksOf } from './flaky-marks.js';

export interface FlakyTest {
  testCaseId: string;
  module: string;
  suite: string;
  name: string;
  /** Runs (shards) in the window whose organic repetitions of this test disagreed. */
  flakyRuns: number;
  /** Distinct commits in the window with organic flaky evidence (disagreeing retries, or a failing and a passing CI run). */
  flakyCommits: number;
  /** The newest organic flaky evidence in the window; null for a marked test with none left in it. */
  lastFlakyAt: string | null;
  /** The policy's stored mark on this test now. */
  markedFlaky: boolean;
  /** The mark's reason and when it was set (null when never marked). */
  mark: { marked: boolean; reason: string; changedAt: string } | null;
}

/** Tests with organic flaky evidence in the policy's window, and every test the policy marks flaky. */
export async function flakyTests(db: Database, project: Project, now = new Date()): Promise<{ windowDays: number; tests: FlakyTest[] }> {
  const days = windowDays(project);
  const evidence = await flakyEvidence(db, project.projectId, new Date(now.getTime() - days * DAY_MS));
  const byId = new Map<string, FlakyEvidence[]>();
  for (const e of evidence) byId.set(e.testCaseId, [...(byId.get(e.testCaseId) ?? []), e]);
  const marks = await marksOf(db, project.projectId);
  for (const [id, m] of marks) if (m.marked && !byId.has(id)) byId.set(id, []);
  if (byId.size === 0) return { windowDays: days, tests: [] };
  const names = await identitiesOf(db, project.projectId, [...byId.keys()]);
  const tests = [...byId]
    .map(([id, all]): FlakyTest => {
      const n = names.get(id) ?? marks.get(id);
      const m = marks.get(id);
      return {
        testCaseId: id,
        module: n?.module ?? '',
        suite: n?.suite ?? '',
        name: n?.name ?? '',
        flakyRuns: all.filter((e) => e.kind === 'retries').length,
        flakyCommits: new Set(all.map(commitKey)).size,
        lastFlakyAt: all.reduce<string | null>((max, e) => (max === null || e.at > max ? e.at : max), null),
        markedFlaky: m?.marked ?? false,
        mark: m ? { marked: m.marked, reason: m.reason, changedAt: m.changedAt } : null,
      };
    })
    .sort((a, b) => (a.module + a.suite + a.name < b.module + b.suite + b.name ? -1 : 1));
  return { windowDays: days, tests };
}
