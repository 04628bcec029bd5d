export interface ClickHouseServer {
  url: string;
  port: number;
  dir: string;
  /** The server process id (benchmarks read its CPU time from /proc). */
  pid: number | undefined;
  stop(): Promise<void>;
}
export function clickhouseServerBinary(): string;
export function freePort(): Promise<number>;
/** Starts a server; `port` and `dir` let a test restart one on the same address and data. */
export function startClickHouseServer(options?: { port?: number; dir?: string }): Promise<ClickHouseServer>;
export function removeServerDir(server: ClickHouseServer): void;
