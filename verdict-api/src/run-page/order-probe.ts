// How the run page, its headline and the run report word the order probe: what it did for a
// candidate (probed, cut by a bound, not run), and each order dependence it found: the candidate a
// victim (it failed right after another test) or a polluter (an existing test failed right after
// it). An order-dependent test fails the gate in enforce unless the project's setting
// (stress.orderFindingsBlock) makes order findings report-only. Pure.
import type { GateCandidate, OrderProbeCounts } from './run-page.js';
import type { ShownOrderFinding, ShownOrderProbe } from './read-order-probes.js';

/** `CheckoutTest.adds`: a test as the CLI's report names it. */
export const shortName = (t: { suite: string; name: string }): string => `${t.suite.slice(t.suite.lastIndexOf('.') + 1)}.${t.name}`;

/** Whether a candidate was found order-dependent. */
export const isOrderDependent = (c: Pick<GateCandidate, 'orderProbe'>): boolean => c.orderProbe?.orderDependent === true;

/** Whether its findings failed the gate: the project's setting made them block, and it is not muted. */
export const orderBlocking = (c: Pick<GateCandidate, 'orderProbe' | 'muted'>): boolean => isOrderDependent(c) && c.orderProbe!.findingsBlock && !c.muted;

/** "victim", "polluter". */
export function roleWords(f: Pick<ShownOrderFinding, 'role'>): string {
  return f.role === 'victim' ? 'victim: it failed right after another test' : 'polluter: another test failed right after it';
}

/**
 * One finding in a line: "victim: failed right after CartTest.clears (CartTest.clears, then
 * CheckoutTest.adds), in 3 of 3 replays in fresh JVMs". `name` formats a test's name (a code span
 * in Markdown).
 */
export function findingLine(f: ShownOrderFinding, name: (text: string) => string = (t) => t): string {
  const other = name(shortName(f.other));
  const replays = `in ${f.replayFailures} of ${f.replays} ${f.replays === 1 ? 'replay' : 'replays'} of that order, each in a fresh JVM`;
  if (f.role === 'victim') return `victim: it failed right after ${other} ran in its JVM, ${replays}`;
  const alone = f.otherPassesAlone === null ? '' : f.otherPassesAlone ? `; ${other} passes alone` : `; ${other} also failed alone, so the order may not be the cause`;
  return `polluter: ${other} failed right after it ran in the same JVM, ${replays}${alone}`;
}

/** "CartTest.clears, then CheckoutTest.adds": the order the pair failed in. */
export function orderWords(f: Pick<ShownOrderFinding, 'order'>, name: (text: string) => string = (t) => t): string {
  return f.order.map((t) => name(shortName(t))).join(', then ');
}

/**
 * What the probe did, in a line: "order probe: ran beside 40 of 40 other tests (3 of 12 classes of
 * its module sampled), seed 42"; for a cut one, how far it got and that the rest was not checked;
 * for one not run, why.
 */
export function probeLine(p: ShownOrderProbe): string {
  const sample = `${p.sampledClasses} of ${p.moduleClasses} ${p.moduleClasses === 1 ? 'class' : 'classes'} of its module sampled`;
  switch (p.status) {
    case 'probed':
      return `order probe: ran beside ${p.partnersRun} of ${p.partners} other ${p.partners === 1 ? 'test' : 'tests'} (${sample}), seed ${p.seed}`;
    case 'cut':
      return `order probe cut: its budget or the wall-clock ceiling stopped it after ${p.partnersRun} of ${p.partners} other tests (${sample}), seed ${p.seed}; the orders not run were not checked${p.why ? ` (${p.why})` : ''}`;
    default:
      return `order probe not run: ${p.why ?? 'no reason given'}; its order dependence was not checked`;
  }
}

/** What the findings did to the merge request. */
export function orderVerdict(c: Pick<GateCandidate, 'orderProbe' | 'muted'>, mode: string | undefined): string {
  if (c.muted) return 'not blocking (muted)';
  if (!c.orderProbe?.findingsBlock) return "not blocking (the project's setting makes order findings report-only)";
  return mode === 'enforce' ? 'blocked this merge request' : 'would have blocked this merge request (report mode)';
}

/** "2 findings (1 victim, 1 polluter)", with the ones the bounds left out. */
export function findingsCount(p: ShownOrderProbe): string {
  const n = p.victims + p.polluters;
  const roles = [p.victims ? `${p.victims} as victim` : '', p.polluters ? `${p.polluters} as polluter` : ''].filter(Boolean).join(', ');
  const omitted = p.findingsOmitted > 0 ? `; ${p.findingsOmitted} more left out by the CLI's bound` : '';
  return `${n} order ${n === 1 ? 'finding' : 'findings'} (${roles})${omitted}`;
}

/**
 * The order probe over a run's candidates (every page), in a line: "1 new test order-dependent (1
 * finding as victim, 0 as polluter), 1 blocking; the probe was cut for 2 and did not run for 1";
 * null when no probe was uploaded. A cut or a probe not run is always said: it checked less.
 */
export function orderProbeFacts(o: OrderProbeCounts): string | null {
  const parts = [
    o.orderDependent > 0 ? `${o.orderDependent} new ${o.orderDependent === 1 ? 'test' : 'tests'} order-dependent (${o.victims} ${o.victims === 1 ? 'finding' : 'findings'} as victim, ${o.polluters} as polluter), ${o.blocking} blocking` : '',
    o.cut > 0 ? `cut by its budget or the ceiling for ${o.cut} ${o.cut === 1 ? 'candidate' : 'candidates'}` : '',
    o.notRun > 0 ? `not run for ${o.notRun} ${o.notRun === 1 ? 'candidate' : 'candidates'}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : null;
}
