// Connections before requests: a client that opens connections and sends nothing on them must not
// use up the process's file descriptors, which chDB shares (docs/security.md, "Connection flood").
// A cap per client address and in total, a short time for a request's headers, and idle
// keep-alive connections closed soon.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../log/logger.js';

export interface ConnectionLimits {
  /** Connections one client address may hold at once; more are closed as they arrive. */
  perAddress: number;
  /** Connections the process holds at once (Node's maxConnections); more are closed as they arrive. */
  total: number;
  /** Time a client has to send a request's headers (Node's headersTimeout). */
  headersTimeoutMs: number;
  /** Time an idle keep-alive connection is kept (Node's keepAliveTimeout). */
  keepAliveTimeoutMs: number;
  /** How often Node checks connections against the header timeout (its default is 30 s). */
  checkIntervalMs: number;
}

/** The descriptors the process may open (its soft limit), or null where /proc does not say. */
export function descriptorLimit(limitsText: string | null = readProcLimits()): number | null {
  const line = limitsText?.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.match(/^Max open files\s+(\d+|unlimited)/)?.[1];
  if (soft === undefined) return null;
  return soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
}

function readProcLimits(): string | null {
  return readText('/proc/self/limits');
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The listen backlog: the kernel's cap on it (net.core.somaxconn, 4,096 on current Linux), at
 * most 65,535; Node's 511 where the kernel does not say.
 */
export function listenBacklog(somaxconn: string | null = readText('/proc/sys/net/core/somaxconn')): number {
  const value = Number(somaxconn?.trim());
  return Number.isInteger(value) && value > 0 ? Math.min(value, 65_535) : 511;
}

/**
 * The defaults: half the process's descriptors for connections (at most 10,000; 4,096 where the
 * limit is unknown), leaving the rest to ClickHouse, files and webhooks; 256 per client address.
 */
export function defaultConnectionLimits(descriptors: number | null = descriptorLimit()): ConnectionLimits {
  const total = descriptors === null ? 4_096 : Math.max(64, Math.min(10_000, Math.floor(descriptors / 2)));
  return { perAddress: Math.min(256, total), total, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000, checkIntervalMs: 1_000 };
}

/** The options createServer takes for these limits (the header check interval is one). */
export function connectionServerOptions(limits: ConnectionLimits): { connectionsCheckingInterval: number; headersTimeout: number; keepAliveTimeout: number } {
  return { connectionsCheckingInterval: limits.checkIntervalMs, headersTimeout: limits.headersTimeoutMs, keepAliveTimeout: limits.keepAliveTimeoutMs };
}

/** What the limits did: connections refused per reason, and who holds the most. */
export interface ConnectionStats {
  refusedPerAddress: number;
  refusedTotal: number;
  open: number;
}

/**
 * Applies the limits to a server: the total through maxConnections (Node closes the excess before
 * any code runs), the per-address cap on each accepted socket. Refusals are logged at most once a
 * minute, with their counts.
 */
export function limitConnections(server: Server, limits: ConnectionLimits, log: Logger, now: () => number = Date.now): ConnectionStats {
  const stats: ConnectionStats = { refusedPerAddress: 0, refusedTotal: 0, open: 0 };
  const perAddress = new Map<string, number>();
  let logged = Number.NEGATIVE_INFINITY;
  const report = (reason: string, address: string) => {
    if (now() - logged < 60_000) return;
    logged = now();
    log.warn({ reason, address, refusedPerAddress: stats.refusedPerAddress, refusedTotal: stats.refusedTotal, open: stats.open, limits: { perAddress: limits.perAddress, total: limits.total } }, 'connections refused: a client holds too many');
  };
  server.maxConnections = limits.total;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.on('drop', (data?: { remoteAddress?: string }) => {
    stats.refusedTotal++;
    report('total', data?.remoteAddress ?? 'unknown');
  });
  // A connection is counted, or closed when over its address's cap, before Node's HTTP layer sees
  // it (no parser, no timers): refusing must cost less than the flood costs to send, or the accept
  // queue fills.
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== 'connection') return emit(event, ...args);
    const socket = args[0] as Socket;
    const address = socket.remoteAddress ?? 'unknown';
    const held = perAddress.get(address) ?? 0;
    if (held >= limits.perAddress) {
      stats.refusedPerAddress++;
      report('per address', address);
      socket.destroy();
      return true;
    }
    perAddress.set(address, held + 1);
    stats.open++;
    socket.once('close', () => {
      stats.open--;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
    return emit(event, ...args);
  }) as Server['emit'];
  return stats;
}
