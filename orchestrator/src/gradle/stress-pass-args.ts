// The stress pass reuses the user's Gradle invocation minus its task selection: flags such as
// --offline, -Pk=v, -Dk=v, --info stay, task names and the options that belong to tasks go.

// Gradle's own options that take a value as the next argument (those of 4.4.1, which is run here, and of the 7.6 and 8.10 command lines).
const VALUE_TAKING = new Set([
  '-b', '--build-file', '-c', '--settings-file', '-g', '--gradle-user-home', '-I', '--init-script',
  '-p', '--project-dir', '-x', '--exclude-task', '--max-workers', '--include-build',
  '--project-cache-dir', '-P', '--project-prop', '-D', '--system-prop', '--console',
  '--warning-mode', '--priority', '-M', '--write-verification-metadata', '--dependency-verification',
  '--update-locks',
]);

// Options that would change what the stress pass does: recompiling everything, watching files,
// or dry-running. Dropped (with --rerun-tasks the repetitions would recompile the project).
const DROPPED = new Set(['--rerun-tasks', '-t', '--continuous', '-m', '--dry-run']);

// Options of the Test task (they follow a task name). `--tests` takes a value.
const TASK_OPTIONS_WITH_VALUE = new Set(['--tests']);
const TASK_FLAGS = new Set(['--debug-jvm', '--fail-fast', '--no-fail-fast', '--rerun']);

const LOG_LEVELS = new Set(['-q', '--quiet', '-w', '--warn', '-i', '--info', '-d', '--debug']);

/**
 * The user's arguments for the stress pass: task names and task options removed, and `-q` added
 * unless the user chose a log level (the report sums the repetitions up; errors still print).
 */
export function stressPassArgs(userArgs: readonly string[]): string[] {
  const out: string[] = userArgs.some((a) => LOG_LEVELS.has(a)) ? [] : ['-q'];
  for (let i = 0; i < userArgs.length; i++) {
    const arg = userArgs[i]!;
    if (!arg.startsWith('-')) continue; // a task name (or a task option's value, handled below)
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (TASK_OPTIONS_WITH_VALUE.has(name)) {
      if (!arg.includes('=')) i++;
      continue;
    }
    if (TASK_FLAGS.has(arg) || DROPPED.has(arg)) continue;
    out.push(arg);
    if (VALUE_TAKING.has(arg) && i + 1 < userArgs.length) {
      out.push(userArgs[i + 1]!);
      i++;
    }
  }
  return out;
}
