// The part of env-ci (v11, untyped; @types/env-ci describes v3) that detect-ci-env reads.
declare module 'env-ci' {
  /** What env-ci found: on a PR, `branch` is the target and `prBranch` the source. */
  export interface EnvCiResult {
    isCi: boolean;
    service?: string;
    name?: string;
    commit?: string;
    branch?: string;
    prBranch?: string;
    isPr?: boolean;
  }
  /** Detects the CI service from `env`; runs git in `cwd` where a service says nothing. */
  export default function envCi(options?: { env?: Record<string, string | undefined>; cwd?: string }): EnvCiResult;
}
