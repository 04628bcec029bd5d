# The README's commands. Both install what they need first (Debian packages when run as root).
SHELL := /bin/bash
APT_PACKAGES := clickhouse-server zookeeper gradle maven openjdk-17-jdk-headless junit4 chromium fish zsh
PLUGIN_JAR := gradle-plugin/build/libs/stress-gate-gradle-plugin.jar
# The copy the CLI's npm package carries (and finds at run time), beside its init-script template.
PACKAGED_JAR := orchestrator/gradle-plugin/stress-gate-gradle-plugin.jar
# The JVM runner of both build tools (the stress runner with its JUnit 4, JUnit Platform and TestNG
# kinds, the JUnit Platform listener, and Maven's fork agent), built by Maven (versions pinned in its
# pom; the first build downloads them from Maven Central into ~/.m2). The CLI's package carries both jars.
RUNNER_JAR := orchestrator/jvm-runner/target/stress-gate-jvm-runner.jar

.PHONY: demo test install apt node plugin plugin-compat plugin-test runner-test bench clean

## demo: the main job — the gate on the example Gradle and Maven projects against the verdict API on embedded ClickHouse
## (SERVE=1 keeps the dashboard serving until Ctrl-C)
demo: install
	SERVE=$(SERVE) bash scripts/demo.sh

## test: the Java tests (the JVM runner's JUnit tests, the Gradle plugin's TestKit tests, each with its
## counts), the plugin compiled against newer Gradle APIs, the type check of sources and tests, the linter (eslint, import
## boundaries, no cycles of modules or folders), the docs check (the README's and docs' commands, links,
## flags and env keys), then unit and integration tests (real chDB, a real clickhouse-server, real Gradle and Maven builds)
test: install plugin-compat runner-test plugin-test
	npm run typecheck
	npm run lint
	npm run check:docs
	npm test

install: apt node plugin

apt:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || printf '%s ' $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian packages: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "Missing Debian packages: $$missing. Run as root, or: sudo apt-get install $$missing" >&2; exit 1; \
	  fi; \
	fi

node:
	npm ci --no-audit --no-fund
	npm run build

plugin: $(PACKAGED_JAR) $(RUNNER_JAR)

## plugin-compat: the plugin's sources compiled against newer Gradle APIs (Maven Central's
## dev.gradleplugins:gradle-api); only Debian's 4.4.1 can run here, so a removed API fails this.
GRADLE_API_VERSIONS := 8.10 7.6.4
plugin-compat:
	@for v in $(GRADLE_API_VERSIONS); do echo "Compiling the Gradle plugin against the Gradle $$v API"; \
	  mvn -B -q -f gradle-plugin/compat/pom.xml compile -Dgradle.api.version=$$v || exit 1; done

## runner-test: the JVM runner's JUnit tests (orchestrator/jvm-runner/src/test): each runner kind in
## real runner JVMs, and the fork's runtime class path. Plain mvn, not -o: the first run resolves
## Surefire's JUnit Platform provider; pinned versions need no network after that.
## Prints the counts from Surefire's reports (scripts/junit-counts.mjs fails when none ran).
runner-test:
	@echo "Running the JVM runner's JUnit tests"; rm -rf orchestrator/jvm-runner/target/surefire-reports; status=0; \
	  (cd orchestrator/jvm-runner && mvn -B -q test) || status=$$?; \
	  node scripts/junit-counts.mjs "JVM runner tests (JUnit)" orchestrator/jvm-runner/target/surefire-reports || status=1; \
	  exit $$status

## plugin-test: the Gradle plugin's functional tests (gradle-plugin/src/test, JUnit 4 and Gradle TestKit):
## small fixture builds with the plugin applied as the orchestrator applies it (the init script, -I),
## first pass, stress pass, quarantine skips and refusals, run on Debian's Gradle 4.4.1, the only Gradle
## this machine can run (7.6.4 and 8.10 are compiled against only: make plugin-compat). Offline; always
## reruns (cleanTest) and prints the counts from the JUnit XML.
plugin-test:
	@echo "Running the Gradle plugin's TestKit tests on Debian's Gradle"; status=0; \
	  (cd gradle-plugin && gradle --offline --quiet cleanTest test) || status=$$?; \
	  node scripts/junit-counts.mjs "Gradle plugin tests (TestKit)" gradle-plugin/build/test-results/test || status=1; \
	  exit $$status

# Without its tests (make runner-test runs them), so that make install stays quick.
$(RUNNER_JAR): $(shell find orchestrator/jvm-runner/src -type f) orchestrator/jvm-runner/pom.xml
	cd orchestrator/jvm-runner && mvn -B -q package -DskipTests

$(PLUGIN_JAR): $(shell find gradle-plugin/src -type f) gradle-plugin/build.gradle
	cd gradle-plugin && gradle --offline --quiet jar

$(PACKAGED_JAR): $(PLUGIN_JAR) gradle-plugin/stress-gate.init.gradle
	node scripts/package-assets.mjs plugin

bench: install
	npm run bench:verdict
	npm run bench:ingest
	npm run bench:stress
	npm run bench:overhead
	npm run bench:xml
	npm run bench:maven

clean:
	rm -rf node_modules */dist gradle-plugin/build .data orchestrator/vendor orchestrator/gradle-plugin orchestrator/jvm-runner/target verdict-api/migrations
