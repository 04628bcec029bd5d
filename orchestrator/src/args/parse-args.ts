// The command line: `stress-orchestrator <gradle|mvn|./mvnw> <build args…> [tool options] [-- verbatim]`.
// Hand-written rather than node:util parseArgs: the tool's options are picked out of a stream
// that otherwise belongs to the build tool, in order, and unknown options must pass through untouched.
import { UsageError } from '../base/errors.js';

/** The tool's own options as typed; unset ones are absent. Validation happens in config/. */
export interface ToolFlags {
  /** `--stress-new-tests <report|enforce|off>`. */
  mode?: string;
  /** `--server-url <url>`: base URL of the verdict API. */
  serverUrl?: string;
  /** `--project <handle>`: the project on the verdict API. */
  project?: string;
  /** `--token <token>`: discouraged (shell history, process list); prefer STRESS_GATE_TOKEN. */
  token?: string;
  /** `--report-file <path>`: the JSON report. Default: build/stress-gate/report.json. */
  reportFile?: string;
  /** `--project-dir <dir>`: where the build runs. Default: the current directory. */
  projectDir?: string;
  /** `--skip-quarantine`: run every test, ignoring the quarantine list. Default: the list applies. */
  skipQuarantine?: boolean;
  /** `--comment`: post the run report as one comment on the merge request (updated on later runs). */
  comment?: boolean;
  /** `--maven-executable <path>`: the Maven to run (a wrapper or an installation). Default: what the command names. */
  mavenExecutable?: string;
  /**
   * `--stress-tests <selector>` (repeatable): no gate, no server: run the build, then stress exactly
   * these tests as the gate would (`[<module> ]<class>.<test>`, `*` for any run of characters).
   */
  stressTests?: string[];
  /**
   * `--run-order <selector>` (repeatable): no gate, no server: run the build, then exactly these
   * tests in one fresh JVM, each on its own, in this order (the order probe's reproduce command).
   */
  runOrder?: string[];
  /** `--repetitions <n>` (with --stress-tests): repetitions per test instead of the duration curve. */
  repetitions?: string;
  /** `--until-failure` (with --stress-tests): stop at the first failed repetition. */
  untilFailure?: boolean;
}

/** What the command line asks for. */
export type ParsedArgs =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'gradle'; flags: ToolFlags; buildArgs: string[] }
  | { kind: 'maven'; flags: ToolFlags; buildArgs: string[]; executable: 'mvn' | './mvnw' };

/** The Maven commands: `mvn` (from PATH) or the project's wrapper (`./mvnw`). */
const MAVEN_COMMANDS = new Set(['mvn', 'maven', './mvnw', 'mvnw']);

const VALUE_OPTIONS: Record<string, Exclude<keyof ToolFlags, 'skipQuarantine' | 'comment' | 'untilFailure'>> = {
  '--stress-new-tests': 'mode',
  '--server-url': 'serverUrl',
  '--project': 'project',
  '--token': 'token',
  '--report-file': 'reportFile',
  '--project-dir': 'projectDir',
  '--maven-executable': 'mavenExecutable',
  '--stress-tests': 'stressTests',
  '--run-order': 'runOrder',
  '--repetitions': 'repetitions',
};

const SWITCHES: Record<string, 'skipQuarantine' | 'comment' | 'untilFailure'> = {
  '--skip-quarantine': 'skipQuarantine',
  '--comment': 'comment',
  '--until-failure': 'untilFailure',
};

/** The --help text. */
export const USAGE = `Usage: stress-orchestrator gradle <gradle args…> [options] [-- <verbatim gradle args>]
       stress-orchestrator mvn <maven args…> [options] [-- <verbatim maven args>]   (or ./mvnw)

Runs the Gradle or Maven build, then stresses the tests this branch adds (each repetition in a
fresh JVM).

Options (recognised anywhere before "--"; everything else goes to the build tool in order):
  --stress-new-tests <mode>  report | enforce | off (env STRESS_NEW_TESTS; default: off)
  --server-url <url>         verdict API base URL (env STRESS_GATE_URL)
  --project <handle>         project on the verdict API (env STRESS_GATE_PROJECT)
  --token <token>            API token; prefer env STRESS_GATE_TOKEN
  --report-file <path>       JSON report (default: build/stress-gate/report.json)
  --project-dir <dir>        directory the build runs in (default: current directory)
  --maven-executable <path>  the Maven to run (env STRESS_GATE_MAVEN; default: mvn from PATH, or
                             the project's ./mvnw when the command is ./mvnw)
  --stress-tests <test>      no gate, no server: run the build, then stress exactly this test
                             (repeatable; "[:module ]pkg.Class.test", * for any characters) in
                             fresh JVMs as the gate would; exit 1 when one disagreed with itself,
                             4 when the build failed and none did
  --run-order <test>         no gate, no server: run the build, then exactly these tests
                             (repeatable) in one fresh JVM, each on its own, in the order named,
                             as the order probe ran them; exit 1 when one failed
  --repetitions <n>          with --stress-tests: repetitions per test (default: the gate's curve);
                             with --run-order: JVMs that run the order
  --until-failure            with --stress-tests: stop at the first failed repetition
  --skip-quarantine          ignore the quarantine list: run every test, mask nothing
                             (env STRESS_GATE_SKIP_QUARANTINE=1)
  --comment                  post the run report on the merge request, one comment updated per run
                             (env STRESS_GATE_COMMENT=1; GitHub: GITHUB_TOKEN, GitLab: GITLAB_TOKEN or CI_JOB_TOKEN)
                             The build never gets the gate's tokens nor these CI credentials;
                             env STRESS_GATE_BUILD_ENV_KEEP=CI_JOB_TOKEN,… gives it the ones named
  --help, --version
`;

/** Splits argv (without node and the script) into the tool's flags and the build tool's arguments. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const first = argv[0];
  if (first === '--help' || first === '-h' || first === 'help') return { kind: 'help' };
  if (first === '--version') return { kind: 'version' };
  if (first === undefined) throw new UsageError('missing command; expected "gradle" or "mvn"');
  if (first !== 'gradle' && !MAVEN_COMMANDS.has(first)) throw new UsageError(`unknown command "${first}"; expected "gradle" or "mvn"`);

  const flags: ToolFlags = {};
  const buildArgs: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      buildArgs.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '--help') return { kind: 'help' };
    if (arg === '--version') return { kind: 'version' };
    const toggle = SWITCHES[arg];
    if (toggle) {
      flags[toggle] = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const key = VALUE_OPTIONS[name];
    if (key === undefined) {
      buildArgs.push(arg);
      continue;
    }
    let value: string | undefined;
    if (eq > 0) {
      value = arg.slice(eq + 1);
    } else {
      value = argv[i + 1];
      if (value === undefined || value === '--') throw new UsageError(`${name} needs a value`);
      i++;
    }
    if (key === 'stressTests') flags.stressTests = [...(flags.stressTests ?? []), value];
    else if (key === 'runOrder') flags.runOrder = [...(flags.runOrder ?? []), value];
    else flags[key] = value;
  }
  if (first === 'gradle') return { kind: 'gradle', flags, buildArgs };
  // `mvn` and `maven` run the mvn on PATH, `./mvnw` and `mvnw` the project's wrapper; the
  // command is what runs (the CLI says which), never a silent switch to a wrapper.
  return { kind: 'maven', flags, buildArgs, executable: first === 'mvn' || first === 'maven' ? 'mvn' : './mvnw' };
}
