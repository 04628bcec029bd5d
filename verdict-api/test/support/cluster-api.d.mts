import type { LocalCluster } from './clickhouse-cluster.mjs';

export type Cluster = LocalCluster;

export interface ApiInstance {
  url: string;
  pid: number;
  /** The last of what it wrote on stderr (its warnings and errors). */
  stderr(): string;
  stop(): Promise<void>;
}

/** API processes sharing one database; what seedClusterProject needs of them. */
export interface Apis {
  instances: ApiInstance[];
  database: string;
  operatorToken: string;
  /** What every instance was started with (startInstance with it adds one more). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface ClusterApi extends Apis {
  cluster: Cluster;
  /** A statement on one node (the first by default), answered as text (TabSeparated). */
  query(text: string, node?: number): Promise<string>;
}

export interface ClusterProject {
  handle: string;
  projectId: string;
  accountId: string;
  /** The project's default-branch CI token. */
  token: string;
  /** A merge-request token of the project. */
  mrToken: string;
  /** The account's admin credential. */
  admin: string;
}

export function startApis(clickhouseEnv: Record<string, string>, instances?: number, extraEnv?: Record<string, string>): Promise<Apis>;
export function startClusterApi(instances?: number, extraEnv?: Record<string, string>): Promise<ClusterApi>;
export function startInstance(env: Record<string, string>): Promise<ApiInstance>;
export function seedClusterProject(api: Pick<Apis, 'instances' | 'operatorToken'>, handle: string, instance?: number): Promise<ClusterProject>;
