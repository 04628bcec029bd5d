#!/usr/bin/env bash
# The main job: the stress gate on the example Gradle build, then on the example Maven build,
# against the verdict API on embedded ClickHouse. For each: seeds default-branch history from a CI
# run on main, then runs the gate on a feature branch that adds tests, in report and enforce mode.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/stress-gate-demo.XXXXXX")
api_log="$work/verdict-api.log"
api_pid=

cleanup() {
  if [ -n "$api_pid" ]; then kill "$api_pid" 2>/dev/null || true; wait "$api_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "Starting the verdict API on embedded ClickHouse (chDB), data in $work/chdb"
STRESS_GATE_DATA_DIR="$work/chdb" VERDICT_API_PORT=0 LOG_LEVEL=warn \
  "$root/verdict-api/bin/verdict-api.js" demo --write-env "$work/api.env" >"$api_log" 2>&1 &
api_pid=$!
for _ in $(seq 1 120); do
  [ -s "$work/api.env" ] && break
  kill -0 "$api_pid" 2>/dev/null || { cat "$api_log"; echo "the verdict API did not start" >&2; exit 1; }
  sleep 0.5
done
[ -s "$work/api.env" ] || { cat "$api_log"; echo "the verdict API did not start within 60 s" >&2; exit 1; }
sed -n '1,3p' "$api_log"
set -a; . "$work/api.env"; set +a

project="$work/gradle-multi"
cp -r "$root/examples/gradle-multi" "$project"
cd "$project"
git init -q -b main
git -c user.name=demo -c user.email=demo@example.com commit -qm "default branch" --allow-empty
git add -A && git -c user.name=demo -c user.email=demo@example.com commit -qm "example build"

gate() { "$root/node_modules/.bin/stress-orchestrator" gradle "$@"; }

say "main: a CI run on the default branch uploads its tests as history (the gate is on, nothing is new)"
CI=true gate clean test --offline --stress-new-tests report

say "feature/checkout: the branch adds tests (stable, flaky, slow, a new parameterised invocation)"
git checkout -q -b feature/checkout
cp -r "$root/examples/feature-overlay/." "$project/"
git add -A && git -c user.name=demo -c user.email=demo@example.com commit -qm "add checkout tests"

say "gate in report mode: \$ stress-orchestrator gradle clean test --offline --stress-new-tests report"
set +e
CI=true gate clean test --offline --stress-new-tests report --report-file "$work/report-mode.json"
report_exit=$?
say "gate in enforce mode: \$ stress-orchestrator gradle clean test --offline --stress-new-tests enforce"
CI=true gate clean test --offline --stress-new-tests enforce --report-file "$work/enforce-mode.json"
enforce_exit=$?
set -e

say "The verdict API's run page for the enforce run: the gate's verdict and its finding in the flaky section"
node --input-type=module -e '
  const report = JSON.parse((await import("node:fs")).readFileSync(process.argv[1], "utf8"));
  const { STRESS_GATE_URL: url, STRESS_GATE_PROJECT: project, STRESS_GATE_TOKEN: token } = process.env;
  const res = await fetch(`${url}/api/v1/projects/${project}/runs/${report.runId}`, { headers: { Authorization: `Bearer ${token}` } });
  const page = await res.json();
  const gate = page.gate && { ...page.gate, candidates: page.gate.candidates.map((c) => `${c.name}: ${c.repetitions.map((r) => (r.status === "success" ? "." : "F")).join("")} (${c.outcome})`) };
  console.log(JSON.stringify({ runId: page.runId, branch: page.branch, gate, flaky: page.flaky }, null, 2));
  const md = await fetch(`${url}/api/v1/projects/${project}/runs/${report.runId}/report.md`, { headers: { Authorization: `Bearer ${token}` } });
  console.log(`\nThe run report (Markdown, for a merge-request comment):\n\n${await md.text()}`);
' "$work/enforce-mode.json"

say "Maven: examples/maven-multi (two modules, JUnit 5, Surefire), the same gate through \$ stress-orchestrator mvn …"
mproject="$work/maven-multi"
cp -r "$root/examples/maven-multi" "$mproject"
cd "$mproject"
git init -q -b main
git -c user.name=demo -c user.email=demo@example.com commit -qm "default branch" --allow-empty
git add -A && git -c user.name=demo -c user.email=demo@example.com commit -qm "example build"
mvn_gate() { "$root/node_modules/.bin/stress-orchestrator" mvn "$@"; }
# -Dsurefire.printSummary=false keeps Surefire's per-class lines out of the way; the first run
# resolves JUnit and the plugins from Maven Central (into ~/.m2).
MVN=(-q -B -Dsurefire.printSummary=false)

say "main: a CI run on the default branch uploads its tests as history (per invocation: [1], [2], …)"
CI=true mvn_gate "${MVN[@]}" clean test --stress-new-tests report

say "feature/greetings: a stable test, a cross-process flaky one, a slow one, a new parameterised invocation, a new @RepeatedTest repetition, a new dynamic test, a new @Nested test"
git checkout -q -b feature/greetings
cp -r "$root/examples/maven-feature-overlay/." "$mproject/"
git add -A && git -c user.name=demo -c user.email=demo@example.com commit -qm "add greeting tests"

say "gate in report mode: \$ stress-orchestrator mvn -q -B clean test --stress-new-tests report"
set +e
CI=true mvn_gate "${MVN[@]}" clean test --stress-new-tests report --report-file "$work/maven-report-mode.json"
maven_report_exit=$?
say "gate in enforce mode: \$ stress-orchestrator mvn -q -B clean test --stress-new-tests enforce"
CI=true mvn_gate "${MVN[@]}" clean test --stress-new-tests enforce --report-file "$work/maven-enforce-mode.json"
maven_enforce_exit=$?
set -e

say "Summary"
echo "  Gradle report mode exit code:  $report_exit (the first pass's own result)"
echo "  Gradle enforce mode exit code: $enforce_exit (a new test disagreed with itself)"
echo "  Maven report mode exit code:   $maven_report_exit"
echo "  Maven enforce mode exit code:  $maven_enforce_exit"
echo "  JSON reports: $work/{report,enforce}-mode.json, $work/maven-{report,enforce}-mode.json"
if [ "$report_exit" -ne 0 ] || [ "$enforce_exit" -eq 0 ] || [ "$maven_report_exit" -ne 0 ] || [ "$maven_enforce_exit" -eq 0 ]; then
  echo "unexpected: report should exit 0 and enforce non-zero on both examples" >&2
  exit 1
fi

say "The dashboard"
echo "  address:    $STRESS_GATE_URL/sign-in"
echo "  sign in with the admin credential: $STRESS_GATE_ADMIN_TOKEN"
echo "  the enforce run's page: $STRESS_GATE_URL/projects/$STRESS_GATE_PROJECT/runs/$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).runId)' "$work/enforce-mode.json")"
if [ "${SERVE:-}" = 1 ]; then
  echo "  serving until Ctrl-C (make demo SERVE=1)"
  trap 'cleanup; exit 0' INT TERM
  wait "$api_pid"
else
  echo "  (the server stops now; run \"make demo SERVE=1\" to keep it serving)"
fi
