export interface ClickHouseServer {
  url: string;
  port: number;
  tcpPort: number;
  dir: string;
  /** The server process id (benchmarks read its CPU time from /proc). */
  pid: number | undefined;
  stop(): Promise<void>;
}
export function clickhouseServerBinary(): string;
export function freePort(): Promise<number>;
/** Starts a server; `port`, `tcpPort` and `dir` let a test restart one on the same address and data; `extraConfig` adds to its config.xml. */
export function startClickHouseServer(options?: { port?: number; tcpPort?: number; dir?: string; extraConfig?: string }): Promise<ClickHouseServer>;
export function removeServerDir(server: ClickHouseServer): void;
