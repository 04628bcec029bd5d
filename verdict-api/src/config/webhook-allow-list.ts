// The operator's allow-list of webhook targets (STRESS_GATE_WEBHOOK_ALLOW): ranges a webhook may
// reach although they are not public (alerts/webhook-targets.ts refuses every other non-public
// address). Part of the configuration, parsed when the configuration is read.
import { BlockList, isIP } from 'node:net';

/** The operator's allow-list: ranges a webhook may reach although they are not public. */
export interface TargetPolicy {
  readonly allowed: BlockList;
  /** The ranges as given, for messages. */
  readonly text: string;
}

/** No ranges allowed: public addresses only. */
export const PUBLIC_ONLY: TargetPolicy = { allowed: new BlockList(), text: '' };

/** Parses STRESS_GATE_WEBHOOK_ALLOW: comma-separated addresses or CIDRs; throws naming the bad entry. */
export function parseAllowList(text: string | undefined): TargetPolicy {
  const allowed = new BlockList();
  const entries = (text ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '');
  for (const entry of entries) {
    const [address, prefixText] = entry.split('/');
    const type = isIP(address ?? '');
    const max = type === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (type === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`"${entry}" is not an address or a CIDR such as 10.0.0.0/8`);
    allowed.addSubnet(address!, prefix, type === 4 ? 'ipv4' : 'ipv6');
  }
  return { allowed, text: entries.join(',') };
}
