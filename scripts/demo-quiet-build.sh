#!/usr/bin/env bash
# The demo's build tool shim: `demo-quiet-build.sh LOG TOOL ARGS…` runs TOOL ARGS… and files the
# lines that say nothing about this build into LOG instead of the terminal: the JVM banner that
# Debian's gradle script prints at every start ("openjdk version …"), the JDK 17 warning Gradle
# 4.4.1's test worker triggers in every test JVM ("WARNING: A terminally deprecated method …
# System::setSecurityManager …"), Gradle's per-task lines (":app:compileJava", ":core:test
# UP-TO-DATE") and the bare colour resets Maven 3.8's -q prints ("ESC[0mESC[0m"). Everything else
# passes through on the stream it came on: the build's result, failed tasks, failing tests,
# compiler errors. The exit code is TOOL's.
#
# scripts/demo.sh puts it on PATH as `gradle` and `mvn`, so the gate runs it as it would the real
# tool (the first pass inherits the terminal; the stress pass's build log is the gate's own).
set -uo pipefail
log=$1
tool=$2
shift 2

quiet() {
  # $1: the stream's name in the log. A task line glued to a warning (":app:testWARNING: …",
  # Gradle prints the task name without a newline) counts as both.
  awk -v out="$log" -v stream="$1" '
    function file(line) { print "[" stream "] " line >> out; fflush(out) }
    /^(openjdk|java) version "/ || /^OpenJDK (Runtime Environment|64-Bit Server VM)/ { file($0); dropped = 1; next }
    /WARNING: (A terminally deprecated method in java\.lang\.System|System::setSecurityManager|Please consider reporting this to the maintainers of org\.gradle)/ {
      file($0); dropped = 1; next
    }
    /^:[A-Za-z0-9_.:-]+( (UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE))?$/ { file($0); dropped = 1; next }
    /^(\033\[0?m)+$/ { file($0); next }
    /^$/ && dropped { file($0); next }
    { dropped = 0; print; fflush() }
  '
}

{ "$tool" "$@" 2>&1 1>&3 3>&- | quiet stderr >&2; exit "${PIPESTATUS[0]}"; } 3>&1 | quiet stdout
exit "${PIPESTATUS[0]}"
