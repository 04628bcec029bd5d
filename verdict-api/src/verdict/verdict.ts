// The verdict, answered at request time: which of the identities that just ran have never run
// in CI on the project's default branch, priced, with every guard's signal. It never reads
// the ingestion-time is_new badge.
import type { Account } from '../accounts/accounts.js';
import type { Project } from '../accounts/projects.js';
import { type Candidate, type VerdictRequest, type VerdictResponse } from '../contract.js';
import { price } from '../candidates/pricing.js';
import { guards } from '../guard/guards.js';
import { compareIdentities, testCaseId } from '../identity/test-case-id.js';
import { inventorySize, knownIds } from '../presence/presence.js';
import type { Database } from '../storage/database.js';
import { rejectDuplicates } from '../ingest/duplicates.js';

type Posted = VerdictRequest['testCases'][number];

export async function verdict(db: Database, project: Project, account: Account, request: { testCases: Posted[] }): Promise<VerdictResponse> {
  const posted = request.testCases;
  const ids = posted.map((t) => testCaseId(project.projectId, t));
  // One id per identity: equal ids are a repeated identity, named by rejectDuplicates.
  if (new Set(ids).size !== ids.length) rejectDuplicates(posted, 'testCases');
  const branch = project.defaultBranch;
  const scope = branch === null ? null : { projectId: project.projectId, branch, isCi: true };
  const [known, inventory] = scope
    ? await Promise.all([knownIds(db, scope, ids), inventorySize(db, scope)])
    : [{ has: () => false }, 0];

  const candidates: Candidate[] = posted
    .map((t, i) => ({ t, id: ids[i]! }))
    .filter(({ id }) => !known.has(id))
    .map(({ t, id }) => ({ module: t.module, suite: t.suite, name: t.name, testCaseId: id, durationMs: t.durationMs, ...price(t.durationMs, project.stress.curve) }))
    .sort(compareIdentities);

  return {
    projectId: project.projectId,
    entitled: account.stressGateEntitled,
    defaultBranch: branch,
    parameters: project.stress,
    inventory,
    posted: posted.length,
    candidates,
    guards: guards({
      defaultBranch: branch,
      inventory,
      newCount: candidates.length,
      stressable: candidates.filter((c) => c.excluded === null).length,
      parameters: project.stress,
    }),
  };
}
