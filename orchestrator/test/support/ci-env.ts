// The environment of one GitLab CI job that runs the gate against a verdict API, configured
// through the environment only (no inherited CI variables, no settings block).

/** A job on `branch` at `commit` in `mode`, talking to `api`. */
export function gitlabCiEnv(branch: string, mode: string, api: { url: string; project: string; token: string }, commit = `sha-${branch}`): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    JAVA_HOME: process.env.JAVA_HOME,
    GITLAB_CI: 'true',
    CI: 'true',
    CI_COMMIT_REF_NAME: branch,
    CI_COMMIT_SHA: commit,
    STRESS_NEW_TESTS: mode,
    STRESS_GATE_URL: api.url,
    STRESS_GATE_PROJECT: api.project,
    STRESS_GATE_TOKEN: api.token,
    STRESS_GATE_LOG_LEVEL: 'warn',
  };
}
