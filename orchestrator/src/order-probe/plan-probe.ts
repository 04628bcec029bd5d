// Pure: which other tests each candidate meets in the order probe, and in which JVMs.
//
// A candidate's partners are the other tests of its own class, and a sample of its module's other
// test classes (some tests of each), drawn by a seeded generator from the tests the build ran in
// the same unit (a Gradle Test task, a Maven module's test phase: the same JVM settings, the same class path). Each JVM runs one sequence
//   C, p1, C, p2, C, …, C, pk, C
// so every partner runs right after the candidate (a polluter check: did the candidate break it?)
// and right before it (a victim check: did it break the candidate?). Most order dependences
// involve one other test (Wei et al., TACAS 2021): pairs are enough, and the cost is bounded by the
// bounds below, never by the module's size.
import type { ProbeTest } from '../repetitions/order-probe-result.js';

export type { ProbeTest };


/** How far the probe goes. */
export interface ProbeBounds {
  /** Other tests of the candidate's class, at most (the rest are sampled out, and said). */
  classPartners: number;
  /** Other classes of its module sampled. */
  sampledClasses: number;
  /** Tests of each sampled class. */
  perSampledClass: number;
  /** Partners in one JVM (a longer list is split over JVMs). */
  partnersPerJvm: number;
  /** Fresh JVMs that replay a suspected pair; a finding failed in every one. */
  replays: number;
  /** Suspected pairs replayed per candidate, at most. */
  suspectsPerCandidate: number;
}

export const DEFAULT_PROBE_BOUNDS: ProbeBounds = { classPartners: 50, sampledClasses: 6, perSampledClass: 4, partnersPerJvm: 40, replays: 2, suspectsPerCandidate: 4 };

/** One candidate's probe. */
export interface CandidateProbePlan {
  candidate: ProbeTest;
  /** Its partners: its class's first, then the sample's. */
  partners: ProbeTest[];
  /** Tests of its class left out by `classPartners`. */
  classPartnersLeftOut: number;
  /** Partners left out so that its JVMs fit its share of the probe's budget (the last ones drawn). */
  budgetLeftOut: number;
  /** The sampled classes, and how many other classes its task ran. */
  sampledClasses: string[];
  moduleClasses: number;
  /** The JVMs: each `C, p1, C, …, pk, C`. */
  sequences: ProbeTest[][];
}

/** A seeded generator (mulberry32): the same seed draws the same sample. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The first `n` of `items` in a seeded random order (a partial Fisher–Yates shuffle of a copy). */
export function sample<T>(items: readonly T[], n: number, random: () => number): T[] {
  const copy = [...items];
  const k = Math.min(n, copy.length);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, k);
}

const byId = (a: ProbeTest, b: ProbeTest) => (a.testCaseId < b.testCaseId ? -1 : a.testCaseId > b.testCaseId ? 1 : 0);

/**
 * Plans each candidate's probe. `pool`: every test the first pass ran and passed (the candidates
 * among them), in any order: it is sorted, so the same seed draws the same sample from the same
 * build. A candidate's partners share its unit of the build and its selection kind (a JUnit Platform test
 * has a unique ID), so they run in its JVM as the build ran them. With a `share`, each candidate
 * keeps the partners whose JVMs fit it (its class's first): a slow test, which runs once beside
 * each partner, meets fewer of them, and the plan says how many it left out.
 */
export function planProbe(candidates: readonly ProbeTest[], pool: readonly ProbeTest[], seed: number, bounds: ProbeBounds = DEFAULT_PROBE_BOUNDS, share?: ProbeShare): CandidateProbePlan[] {
  const byUnit = new Map<string, ProbeTest[]>();
  for (const t of pool) byUnit.set(t.source.unit, [...(byUnit.get(t.source.unit) ?? []), t]);
  for (const list of byUnit.values()) list.sort(byId);
  return candidates.map((candidate, index) => {
    // One stream per candidate, from the seed and its place: a candidate's sample does not depend on the others'.
    const random = seededRandom((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
    const platform = candidate.source.uniqueId !== undefined;
    const mates = (byUnit.get(candidate.source.unit) ?? []).filter((t) => t.testCaseId !== candidate.testCaseId && (t.source.uniqueId !== undefined) === platform);
    const own = mates.filter((t) => t.suite === candidate.suite);
    const classes = new Map<string, ProbeTest[]>();
    for (const t of mates) if (t.suite !== candidate.suite) classes.set(t.suite, [...(classes.get(t.suite) ?? []), t]);
    const classNames = [...classes.keys()].sort();
    const sampled = sample(classNames, bounds.sampledClasses, random);
    const ownKept = own.length > bounds.classPartners ? sample(own, bounds.classPartners, random) : own;
    const drawn = [...ownKept, ...sampled.flatMap((c) => sample(classes.get(c)!, bounds.perSampledClass, random))];
    const partners = share ? drawn.slice(0, fitting(candidate, drawn, share, bounds.partnersPerJvm)) : drawn;
    const sequences: ProbeTest[][] = [];
    for (let i = 0; i < partners.length; i += bounds.partnersPerJvm) {
      sequences.push([candidate, ...partners.slice(i, i + bounds.partnersPerJvm).flatMap((p) => [p, candidate])]);
    }
    return { candidate, partners, classPartnersLeftOut: own.length - ownKept.length, budgetLeftOut: drawn.length - partners.length, sampledClasses: sampled, moduleClasses: classNames.length, sequences };
  });
}

/** What one candidate may spend, and what a JVM's start costs (ms): its partners are cut to fit. */
export interface ProbeShare {
  shareMs: number;
  jvmStartMs: number;
}

/** The predicted time (ms) of the JVMs that run `candidate` beside its first `k` partners. */
export function sequenceCost(candidate: ProbeTest, partners: readonly ProbeTest[], k: number, jvmStartMs: number, perJvm: number): number {
  const jvms = Math.ceil(k / perJvm);
  return jvms * jvmStartMs + (k + jvms) * candidate.durationMs + partners.slice(0, k).reduce((n, p) => n + p.durationMs, 0);
}

/** How many of `partners`, in order, fit the share (at least one: a share too small for any is the budget's to cut, and say). */
function fitting(candidate: ProbeTest, partners: readonly ProbeTest[], share: ProbeShare, perJvm: number): number {
  let k = partners.length;
  while (k > 1 && sequenceCost(candidate, partners, k, share.jvmStartMs, perJvm) > share.shareMs) k--;
  return k;
}

/**
 * The chance that the probe meets one given partner of another class of the module: its class is
 * sampled (`sampled` of `otherClasses`), then the partner among `perClass` of its class's `classSize` tests.
 * A partner in the candidate's own class is always met while the class holds at most `classPartners` others.
 */
export function chanceToMeet(sampled: number, otherClasses: number, perClass: number, classSize: number): number {
  if (otherClasses <= 0 || classSize <= 0) return 0;
  return Math.min(1, sampled / otherClasses) * Math.min(1, perClass / classSize);
}
