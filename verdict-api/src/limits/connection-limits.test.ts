import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { createLogger } from '../log/logger.js';
import { defaultConnectionLimits, descriptorLimit, limitConnections, listenBacklog } from './connection-limits.js';

const limits = (soft: string) => `Limit                     Soft Limit           Hard Limit           Units\nMax processes             94843                94843                processes\nMax open files            ${soft}                524288               files\n`;

describe('connection limits', () => {
  it('reads the soft descriptor limit from /proc/self/limits', () => {
    expect(descriptorLimit(limits('20000'))).toBe(20_000);
    expect(descriptorLimit(limits('unlimited'))).toBe(Number.POSITIVE_INFINITY);
    expect(descriptorLimit('no such line')).toBeNull();
    expect(descriptorLimit(null)).toBeNull();
  });

  it('gives connections half the descriptors, at most 10,000, and 256 to one address', () => {
    expect(defaultConnectionLimits(20_000)).toMatchObject({ total: 10_000, perAddress: 256, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 });
    expect(defaultConnectionLimits(1_024)).toMatchObject({ total: 512, perAddress: 256 });
    expect(defaultConnectionLimits(100)).toMatchObject({ total: 64, perAddress: 64 });
    expect(defaultConnectionLimits(Number.POSITIVE_INFINITY).total).toBe(10_000);
    expect(defaultConnectionLimits(null).total).toBe(4_096);
  });

  it("listens with the kernel's longest backlog, Node's 511 where it does not say", () => {
    expect(listenBacklog('4096\n')).toBe(4_096);
    expect(listenBacklog('1000000')).toBe(65_535);
    expect(listenBacklog(null)).toBe(511);
    expect(listenBacklog('')).toBe(511);
  });

  it("closes a connection over its address's cap before the HTTP server sees it, and takes one again once another closed", async () => {
    const seen: Socket[] = [];
    const server = createServer((_req, res) => res.end('ok'));
    const stats = limitConnections(server, { ...defaultConnectionLimits(1_000), perAddress: 2 }, createLogger('silent'));
    server.on('connection', (s: Socket) => seen.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const open = () =>
      new Promise<{ socket: Socket; closed: Promise<void> }>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port });
        const closed = new Promise<void>((r) => socket.once('close', () => r()));
        socket.on('error', () => {});
        socket.once('connect', () => resolve({ socket, closed }));
      });
    try {
      const [a, b] = [await open(), await open()];
      const c = await open();
      await c.closed;
      expect(stats).toMatchObject({ refusedPerAddress: 1, open: 2 });
      // The HTTP server's own listeners (after this one) never saw the refused connection.
      expect(seen).toHaveLength(2);
      a.socket.destroy();
      await a.closed;
      await new Promise((r) => setTimeout(r, 50));
      const d = await open();
      await new Promise((r) => setTimeout(r, 50));
      expect(stats).toMatchObject({ refusedPerAddress: 1, open: 2 });
      expect(seen).toHaveLength(3);
      b.socket.destroy();
      d.socket.destroy();
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
