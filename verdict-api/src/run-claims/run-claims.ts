// Who may write under a run id. The first credential to upload a run (or its gate result)
// claims the run id; another credential's upload under it is refused, so that a merge-request
// job cannot take a run id first (the default branch's upload of it was answered "duplicate"
// and dropped), add a shard to another job's run, or overwrite its gate result. A run shard's
// gate result is written once: a retry of the same result is answered as before, a different
// one refused.
//
// ClickHouse has no compare-and-set. Claims of one key are made one at a time in this process
// (read, then insert when there is none); the earliest claim by seq owns the key, read back after
// the insert. Two API processes sharing one clickhouse-server that claim one new run id within
// the same few milliseconds could both go on (docs/security.md says so). On a cluster, where
// several API instances are the point, a new claim is made in ZooKeeper first (coordinator.ts):
// one instance creates the key's node and owns it, the others read the owner from the node.
import { createHash } from 'node:crypto';
import type { TokenScope } from '../accounts/tokens.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import type { Database } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

/** What is claimed: a run id (shard 0), or one shard's gate result. */
export type ClaimKind = 'run' | 'gate';

/** Who claims, and what they wrote. */
export interface Claimant {
  /** The credential, as audits record it (`token:<id>`, `admin:<id>`, `operator`). */
  actor: string;
  scope: TokenScope;
  /** The hash of what is written ('' when it does not matter). */
  bodyHash: string;
}

/** The claim that owns a key, and whether it is the caller's. */
export interface ClaimResult {
  mine: boolean;
  /** The caller's claim existed before this call with the same body (a retry). */
  repeated: boolean;
}

/** The SHA-256 of a document as JSON (a gate result's identity for retries). */
export const bodyHash = (document: unknown): string => createHash('sha256').update(JSON.stringify(document)).digest('hex');

const inFlight = new WeakMap<Database['engine'], Map<string, Promise<unknown>>>();

/** Claims (project, run, kind, shard) for `claimant`, or finds who owns it. */
export async function claim(db: Database, projectId: string, runId: string, kind: ClaimKind, shardIndex: number, claimant: Claimant, now: Date): Promise<ClaimResult> {
  const locks = inFlight.get(db.engine) ?? inFlight.set(db.engine, new Map()).get(db.engine)!;
  const key = JSON.stringify([db.name, projectId, runId, kind, shardIndex]);
  for (let earlier = locks.get(key); earlier; earlier = locks.get(key)) await earlier.catch(() => undefined);
  const claiming = claimOnce(db, projectId, runId, kind, shardIndex, claimant, now);
  locks.set(key, claiming);
  try {
    return await claiming;
  } finally {
    if (locks.get(key) === claiming) locks.delete(key);
  }
}

async function claimOnce(db: Database, projectId: string, runId: string, kind: ClaimKind, shardIndex: number, claimant: Claimant, now: Date): Promise<ClaimResult> {
  const owner = await ownerOf(db, projectId, runId, kind, shardIndex);
  if (owner) return judge(owner, claimant, true);
  if (db.coordinator) {
    const held = await db.coordinator.claimOnce(JSON.stringify(['run-claim', projectId, runId, kind, shardIndex]), JSON.stringify({ actor: claimant.actor, bodyHash: claimant.bodyHash }));
    const first = JSON.parse(held.value) as { actor: string; bodyHash: string };
    // The owner's row, for the reads that follow (runOwner, the next claim): written by the
    // instance that created the node, or again by its retry when that write was lost.
    if (first.actor === claimant.actor && first.bodyHash === claimant.bodyHash) await insertClaim(db, projectId, runId, kind, shardIndex, claimant, now);
    return judge(first, claimant, !held.created);
  }
  await insertClaim(db, projectId, runId, kind, shardIndex, claimant, now);
  // Read back: another process may have claimed it meanwhile, and the earliest claim owns it.
  return judge((await ownerOf(db, projectId, runId, kind, shardIndex))!, claimant, false);
}

function insertClaim(db: Database, projectId: string, runId: string, kind: ClaimKind, shardIndex: number, claimant: Claimant, now: Date): Promise<void> {
  return db.engine.insert(db.t('run_claims'), [
    { project_id: projectId, run_id: runId, kind, shard_index: shardIndex, actor: claimant.actor, scope: claimant.scope, body_hash: claimant.bodyHash, claimed_at: formatDateTime(now), seq: nextVersion() },
  ]);
}

function judge(owner: { actor: string; bodyHash: string }, claimant: Claimant, existed: boolean): ClaimResult {
  const mine = owner.actor === claimant.actor && owner.bodyHash === claimant.bodyHash;
  return { mine: owner.actor === claimant.actor && (claimant.bodyHash === '' || mine), repeated: existed && mine };
}

/** The credential that uploaded under `runId` first (`token:<id>`, …), or null for a run id nobody claimed. */
export async function runOwner(db: Database, projectId: string, runId: string): Promise<string | null> {
  return (await ownerOf(db, projectId, runId, 'run', 0))?.actor ?? null;
}

async function ownerOf(db: Database, projectId: string, runId: string, kind: ClaimKind, shardIndex: number): Promise<{ actor: string; bodyHash: string } | null> {
  const rows = await db.engine.query<{ actor: string; body_hash: string; seq: unknown }>(sql`
    SELECT actor, body_hash, seq FROM ${db.t('run_claims')}
    WHERE project_id = ${uuid(projectId)} AND run_id = ${runId} AND kind = ${kind} AND shard_index = ${shardIndex}
    ORDER BY seq, actor LIMIT 1`);
  const r = rows[0];
  return r ? { actor: r.actor, bodyHash: r.body_hash } : null;
}
