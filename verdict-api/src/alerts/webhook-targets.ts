// Where webhooks may go. A webhook URL is typed by an account's admin, and the server then sends
// requests to it and logs their answers: without a check, that is a way into the server's own
// network (loopback, private ranges, the cloud metadata address 169.254.169.254) and a way to
// read what answers there. So a target must be a public address, unless the operator allows a
// range (STRESS_GATE_WEBHOOK_ALLOW, CIDRs). The check runs at registration (on a literal address
// or a name that resolves to a refused one) and again at delivery, on the very address the
// connection then uses (guardedLookup): a name that resolves elsewhere later (DNS rebinding) is
// refused then.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { TargetPolicy } from '../config/webhook-allow-list.js';


/** Ranges that are not the public internet (IANA special-purpose registries), by what they are. */
const SPECIAL: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'a "this network" address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address (cloud metadata lives here)'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'an IETF protocol address'],
  ['192.0.2.0', 24, 'ipv4', 'a documentation address'],
  ['192.88.99.0', 24, 'ipv4', 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['198.51.100.0', 24, 'ipv4', 'a documentation address'],
  ['203.0.113.0', 24, 'ipv4', 'a documentation address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'the unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['64:ff9b::', 96, 'ipv6', 'a NAT64 address'],
  ['64:ff9b:1::', 48, 'ipv6', 'a NAT64 address'],
  ['100::', 64, 'ipv6', 'a discard address'],
  ['2001::', 23, 'ipv6', 'an IETF protocol address'],
  ['2001:db8::', 32, 'ipv6', 'a documentation address'],
  ['2002::', 16, 'ipv6', 'a 6to4 address'],
  ['fc00::', 7, 'ipv6', 'a unique-local (private) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];
const special = SPECIAL.map(([net, prefix, type, what]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { list, what };
});

/** Why a webhook may not reach `address`, or null when it may. */
export function addressRefusal(address: string, policy: TargetPolicy): string | null {
  const type = isIP(address);
  if (type === 0) return `${address} is not an IP address`;
  const family = type === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowed.check(address, family)) return null;
  const hit = special.find((s) => s.list.check(address, family));
  return hit ? `${address} is ${hit.what}; webhooks go to public addresses unless the operator allows the range (STRESS_GATE_WEBHOOK_ALLOW)` : null;
}

type Lookup = (hostname: string) => Promise<LookupAddress[]>;
const systemLookup: Lookup = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** Why a webhook URL's host may not be reached (any of its addresses refused), or null. A name that does not resolve now is left to delivery. */
export async function urlRefusal(url: string, policy: TargetPolicy, lookup: Lookup = systemLookup): Promise<string | null> {
  const host = hostOf(url);
  if (isIP(host) !== 0) return addressRefusal(host, policy);
  let addresses: LookupAddress[];
  try {
    addresses = await withTimeout(lookup(host), 5_000);
  } catch {
    return null;
  }
  for (const a of addresses) {
    const refusal = addressRefusal(a.address, policy);
    if (refusal) return `${host} resolves to ${refusal}`;
  }
  return null;
}

/** The host of a URL without IPv6 brackets. */
export function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * A lookup for http.request that resolves the name and refuses it when any of its addresses is
 * refused: the connection goes to an address checked a moment before, never to one resolved anew.
 */
export function guardedLookup(policy: TargetPolicy, lookup: Lookup = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    lookup(hostname).then(
      (addresses) => {
        for (const a of addresses) {
          const refusal = addressRefusal(a.address, policy);
          if (refusal) return callback(Object.assign(new Error(`refused: ${refusal}`), { code: 'EWEBHOOKTARGET' }), '', 0);
        }
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        if (all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
