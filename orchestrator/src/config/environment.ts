// The environment keys the CLI reads outside the resolved configuration (logging, temp files, the
// plugin jar), checked before Gradle runs: a bad value is a usage error, never a stack trace.
import { existsSync } from 'node:fs';
import { UsageError } from '../base/errors.js';
import { booleanEnv } from './boolean-env.js';
import { probeSettings } from './probe-settings.js';
import { diffSettings } from './diff-settings.js';

export { booleanEnv };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Throws a UsageError naming the first environment key whose value cannot be used. */
export function checkEnvironment(env: NodeJS.ProcessEnv): void {
  const level = env['STRESS_GATE_LOG_LEVEL']?.trim();
  if (level && !LOG_LEVELS.includes(level)) {
    throw new UsageError(`STRESS_GATE_LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(env['STRESS_GATE_LOG_LEVEL'])}`);
  }
  booleanEnv(env, 'STRESS_GATE_KEEP_TEMP');
  const executor = env['STRESS_GATE_EXECUTOR']?.trim();
  if (executor && executor !== 'direct' && executor !== 'gradle') {
    throw new UsageError(`STRESS_GATE_EXECUTOR: expected one of direct, gradle; got ${JSON.stringify(env['STRESS_GATE_EXECUTOR'])}`);
  }
  const jvms = env['STRESS_GATE_PARALLEL_JVMS']?.trim();
  if (jvms && !/^[1-9][0-9]*$/.test(jvms)) {
    throw new UsageError(`STRESS_GATE_PARALLEL_JVMS: expected a whole number >= 1; got ${JSON.stringify(env['STRESS_GATE_PARALLEL_JVMS'])}`);
  }
  booleanEnv(env, 'STRESS_GATE_IS_CI');
  booleanEnv(env, 'STRESS_GATE_ALLOW_HTTP');
  booleanEnv(env, 'STRESS_GATE_TRUST_SETTINGS_URL');
  booleanEnv(env, 'STRESS_GATE_SKIP_QUARANTINE');
  booleanEnv(env, 'STRESS_GATE_CLASS_ARCHIVE', true);
  // The order probe's keys (on, seed, budget): checked before the build, as the others.
  probeSettings(env, null, () => 0);
  diffSettings(env);
  const jar = env['STRESS_GATE_PLUGIN_JAR'];
  if (jar !== undefined && jar.trim() !== '' && !existsSync(jar)) {
    throw new UsageError(`STRESS_GATE_PLUGIN_JAR: no such file: ${jar}`);
  }
}

/**
 * The CI system's own credentials, which the gate (its merge-request comment) may use and a build
 * seldom needs: GitHub's and GitLab's job tokens, Actions' runtime and OIDC tokens, Azure
 * Pipelines', Buildkite's and CircleCI's.
 */
export const CI_CREDENTIALS: readonly string[] = [
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GITLAB_TOKEN',
  'CI_JOB_TOKEN',
  'CI_JOB_JWT',
  'CI_JOB_JWT_V1',
  'CI_JOB_JWT_V2',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'SYSTEM_ACCESSTOKEN',
  'BUILDKITE_AGENT_ACCESS_TOKEN',
  'CIRCLE_TOKEN',
];

/**
 * The environment the build (Gradle, Maven and the test JVMs they start) runs with: this one
 * without the gate's own credentials (STRESS_GATE_TOKEN and any other STRESS_GATE_…TOKEN) and
 * without the CI system's (CI_CREDENTIALS) unless STRESS_GATE_BUILD_ENV_KEEP names them (a build
 * that reads packages with the job token, say). The build runs the merge request's code; it has
 * no use for them. (It runs as the same user as the CLI, which is why a merge request's job holds
 * a merge-request token only: docs/security.md.)
 */
export function buildEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const keep = new Set((env['STRESS_GATE_BUILD_ENV_KEEP'] ?? '').split(',').map((k) => k.trim()).filter(Boolean));
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^STRESS_GATE_\w*TOKEN$/.test(key) && (!CI_CREDENTIALS.includes(key) || keep.has(key))));
}
