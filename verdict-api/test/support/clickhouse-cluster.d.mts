export interface ClusterNode {
  shard: number;
  replica: number;
  /** HTTP. */
  port: number;
  /** Native protocol (what remote_servers names). */
  tcpPort: number;
  url: string;
  dir: string;
  pid?: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}
export interface ZooKeeperHandle {
  readonly port: number;
  readonly pid: number | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
}
export interface LocalCluster {
  name: string;
  nodes: ClusterNode[];
  zookeeper: ZooKeeperHandle;
  urls(order?: ClusterNode[]): string;
  stop(): Promise<void>;
  remove(): void;
}
export function clusterUnavailableReason(): string | null;
export function startZooKeeper(options?: { port?: number; dir?: string }): Promise<{ port: number; dir: string; pid: number | undefined; stop(): Promise<void> }>;
export function startCluster(options?: { name?: string; shards?: number; replicas?: number }): Promise<LocalCluster>;
