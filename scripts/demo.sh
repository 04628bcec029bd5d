#!/usr/bin/env bash
# The main job: the stress gate on the example Gradle build, then on the example Maven build,
# against the verdict API on embedded ClickHouse, each build in its own project (demo-gradle,
# demo-maven) of one account. For each: seeds default-branch history from a CI run on main with the
# project's default-branch token, then runs the gate on a feature branch that adds tests, in report
# and enforce mode, with a merge-request token minted for that branch (docs/security.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/stress-gate-demo.XXXXXX")
api_log="$work/verdict-api.log"
build_log="$work/build-noise.log"
api_pid=

cleanup() {
  if [ -n "$api_pid" ]; then kill "$api_pid" 2>/dev/null || true; wait "$api_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
commit() { git -c user.name=demo -c user.email=demo@example.com commit -qm "$@"; }

# gradle and mvn as the gate finds them on PATH, through scripts/demo-quiet-build.sh: the JVM banner,
# JDK 17's setSecurityManager warning and Gradle's task lines go to $build_log, the rest to the terminal.
mkdir -p "$work/bin"
for tool in gradle mvn; do
  real=$(command -v "$tool") || { echo "$tool is not on PATH (make install puts it there)" >&2; exit 1; }
  printf '#!/usr/bin/env bash\nexec %q %q %q "$@"\n' "$root/scripts/demo-quiet-build.sh" "$build_log" "$real" >"$work/bin/$tool"
  chmod +x "$work/bin/$tool"
done
export PATH="$work/bin:$PATH"

say "Starting the verdict API on embedded ClickHouse (chDB), data in $work/chdb"
STRESS_GATE_DATA_DIR="$work/chdb" VERDICT_API_PORT=0 LOG_LEVEL=warn \
  "$root/verdict-api/bin/verdict-api.js" demo --project demo-gradle --project demo-maven --write-env "$work/api.env" >"$api_log" 2>&1 &
api_pid=$!
for _ in $(seq 1 120); do
  [ -s "$work/api.env" ] && break
  kill -0 "$api_pid" 2>/dev/null || { cat "$api_log"; echo "the verdict API did not start" >&2; exit 1; }
  sleep 0.5
done
[ -s "$work/api.env" ] || { cat "$api_log"; echo "the verdict API did not start within 60 s" >&2; exit 1; }
sed -n '1,2p' "$api_log"
set -a; . "$work/api.env"; set +a

# use_project H: the gate's project H, with its default-branch token (the key names: verdict-api demo --help).
use_project() {
  local key
  key="STRESS_GATE_DEMO_$(printf %s "$1" | tr 'a-z.-' 'A-Z__')"
  local project="${key}_PROJECT" token="${key}_TOKEN"
  export STRESS_GATE_PROJECT="${!project}" STRESS_GATE_TOKEN="${!token}"
}

# mint_mr_token H BRANCH: a merge-request token of project H for BRANCH, minted through the running
# API with the account's admin credential (STRESS_GATE_ADMIN_TOKEN), as a CI admin would.
mint_mr_token() {
  node "$root/verdict-api/bin/verdict-api.js" admin create-token --server "$STRESS_GATE_URL" --project "$1" --scope merge-request --name "demo $2" |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => process.stdout.write(JSON.parse(s).token))'
}

# run_summary REPORT_FILE: the verdict API's run page of that run, in words: the gate's outcome,
# each stressed test with its strip (one character a repetition: . passed, F failed) and the flaky section.
run_summary() {
  node --input-type=module -e '
    const report = JSON.parse((await import("node:fs")).readFileSync(process.argv[1], "utf8"));
    const { STRESS_GATE_URL: url, STRESS_GATE_PROJECT: project, STRESS_GATE_TOKEN: token } = process.env;
    const res = await fetch(`${url}/api/v1/projects/${project}/runs/${report.runId}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`the run page answered ${res.status}: ${await res.text()}`);
    const page = await res.json();
    const short = (c) => `${c.module} ${c.suite.split(".").pop()}.${c.name}`;
    const out = [`Run ${page.runId} on ${page.branch}, project ${project} (${page.isCi ? "a CI run: default-branch history" : "uploaded with a merge-request token: never history"})`];
    const g = page.gate;
    if (!g) out.push("  no gate verdict");
    else {
      const effect = g.blocked ? "blocked the merge request" : g.wouldHaveBlocked ? "would have blocked the merge request" : "blocked nothing";
      out.push(`  gate in ${g.mode} mode: ${g.outcome}, ${effect}; ${g.stressed} of ${g.candidatesExamined} new test cases stressed, ${g.excluded} excluded`);
      const width = Math.max(...g.candidates.map((c) => short(c).length));
      for (const c of g.candidates) {
        const strip = c.repetitions.map((r) => (r.status === "success" ? "." : "F")).join("");
        out.push(`    ${short(c).padEnd(width)}  ${strip.padEnd(10)}  ${c.outcome}`);
      }
    }
    out.push(page.flaky.length === 0 ? "  flaky section: none" : "  flaky section:");
    for (const f of page.flaky) {
      const by = f.caughtBy === "stress_gate" ? "caught by the stress gate" : "organic";
      out.push(`    ${short(f)}: failed ${f.failed} of ${f.repetitions} repetitions, ${by}`);
    }
    console.log(out.join("\n"));
  ' "$1"
}

say "Gradle: examples/gradle-multi (two subprojects, JUnit 4), in project demo-gradle"
use_project demo-gradle
project="$work/gradle-multi"
cp -r "$root/examples/gradle-multi" "$project"
cd "$project"
git init -q -b main
commit "default branch" --allow-empty
git add -A && commit "example build"

gate() { "$root/node_modules/.bin/stress-orchestrator" gradle "$@"; }

say "main: a CI run on the default branch, with the default-branch token, uploads its tests as history (the gate is on, nothing is new)"
CI=true gate clean test --offline --stress-new-tests report

say "feature/checkout: the branch adds tests (stable, flaky, slow, a new parameterised invocation)"
git checkout -q -b feature/checkout
cp -r "$root/examples/feature-overlay/." "$project/"
git add -A && commit "add checkout tests"
gradle_mr_token=$(mint_mr_token demo-gradle feature/checkout)
echo "feature/checkout runs with a merge-request token of demo-gradle, minted for it: verdict-api admin create-token --project demo-gradle --scope merge-request --server \$STRESS_GATE_URL"

say "gate in report mode: \$ stress-orchestrator gradle clean test --offline --stress-new-tests report"
set +e
STRESS_GATE_TOKEN=$gradle_mr_token CI=true gate clean test --offline --stress-new-tests report --report-file "$work/report-mode.json"
report_exit=$?
say "gate in enforce mode: \$ stress-orchestrator gradle clean test --offline --stress-new-tests enforce"
STRESS_GATE_TOKEN=$gradle_mr_token CI=true gate clean test --offline --stress-new-tests enforce --report-file "$work/enforce-mode.json"
enforce_exit=$?
set -e

say "The verdict API's run page for the enforce run"
run_summary "$work/enforce-mode.json"
echo
echo "The run report (Markdown, for a merge-request comment):"
echo
curl -fsS -H "Authorization: Bearer $STRESS_GATE_TOKEN" "$STRESS_GATE_URL/api/v1/projects/$STRESS_GATE_PROJECT/runs/$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runId' "$work/enforce-mode.json")/report.md"
gradle_run_url="$STRESS_GATE_URL/projects/$STRESS_GATE_PROJECT/runs/$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runId' "$work/enforce-mode.json")"

say "Maven: examples/maven-multi (two modules, JUnit 5, Surefire), in project demo-maven, through \$ stress-orchestrator mvn …"
use_project demo-maven
mproject="$work/maven-multi"
cp -r "$root/examples/maven-multi" "$mproject"
cd "$mproject"
git init -q -b main
commit "default branch" --allow-empty
git add -A && commit "example build"
mvn_gate() { "$root/node_modules/.bin/stress-orchestrator" mvn "$@"; }
# -Dsurefire.printSummary=false keeps Surefire's per-class lines out of the way; the first run
# resolves JUnit and the plugins from Maven Central (into ~/.m2).
MVN=(-q -B -Dsurefire.printSummary=false)

say "main: a CI run on the default branch, with the default-branch token, uploads its tests as history (per invocation: [1], [2], …)"
CI=true mvn_gate "${MVN[@]}" clean test --stress-new-tests report

say "feature/greetings: a stable test, a cross-process flaky one, a slow one, a new parameterised invocation, a new @RepeatedTest repetition, a new dynamic test, a new @Nested test"
git checkout -q -b feature/greetings
cp -r "$root/examples/maven-feature-overlay/." "$mproject/"
git add -A && commit "add greeting tests"
maven_mr_token=$(mint_mr_token demo-maven feature/greetings)
echo "feature/greetings runs with a merge-request token of demo-maven, minted for it: verdict-api admin create-token --project demo-maven --scope merge-request --server \$STRESS_GATE_URL"

say "gate in report mode: \$ stress-orchestrator mvn -q -B clean test --stress-new-tests report"
set +e
STRESS_GATE_TOKEN=$maven_mr_token CI=true mvn_gate "${MVN[@]}" clean test --stress-new-tests report --report-file "$work/maven-report-mode.json"
maven_report_exit=$?
say "gate in enforce mode: \$ stress-orchestrator mvn -q -B clean test --stress-new-tests enforce"
STRESS_GATE_TOKEN=$maven_mr_token CI=true mvn_gate "${MVN[@]}" clean test --stress-new-tests enforce --report-file "$work/maven-enforce-mode.json"
maven_enforce_exit=$?
set -e

say "The verdict API's run page for the Maven enforce run"
run_summary "$work/maven-enforce-mode.json"

say "Summary"
echo "  Gradle report mode exit code:  $report_exit (the first pass's own result)"
echo "  Gradle enforce mode exit code: $enforce_exit (a new test disagreed with itself)"
echo "  Maven report mode exit code:   $maven_report_exit"
echo "  Maven enforce mode exit code:  $maven_enforce_exit"
echo "  JSON reports: $work/{report,enforce}-mode.json, $work/maven-{report,enforce}-mode.json"
echo "  the builds' JVM banners, JDK warnings and Gradle task lines: $build_log"
if [ "$report_exit" -ne 0 ] || [ "$enforce_exit" -eq 0 ] || [ "$maven_report_exit" -ne 0 ] || [ "$maven_enforce_exit" -eq 0 ]; then
  echo "unexpected: report should exit 0 and enforce non-zero on both examples" >&2
  exit 1
fi

say "The dashboard"
echo "  address:    $STRESS_GATE_URL/sign-in"
echo "  sign in with the admin credential: $STRESS_GATE_ADMIN_TOKEN"
echo "  the Gradle enforce run's page: $gradle_run_url"
echo "  the Maven enforce run's page:  $STRESS_GATE_URL/projects/$STRESS_GATE_PROJECT/runs/$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runId' "$work/maven-enforce-mode.json")"
if [ "${SERVE:-}" = 1 ]; then
  echo "  serving until Ctrl-C (make demo SERVE=1)"
  trap 'cleanup; exit 0' INT TERM
  wait "$api_pid"
else
  echo "  (the server stops now; run \"make demo SERVE=1\" to keep it serving)"
fi
