package dev.stressgate.jvm;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Whether a selected unique ID names a test, before its run (in the discovered plan) and after it
 * (did anything under it run). Both are needed: a test template's invocations and a test factory's
 * dynamic tests exist only once their container runs, so the plan holds their container alone,
 * and an invocation index the source no longer has is found out only by running it.
 */
final class PlatformSelection {
    private final String uniqueId;

    PlatformSelection(String uniqueId) {
        this.uniqueId = uniqueId;
    }

    /** The selected unique ID. */
    String uniqueId() {
        return uniqueId;
    }

    /** The plan holds the selected test, something under it, or an empty container above it that may register it while running. */
    boolean inPlan(TestPlan plan) {
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier id : plan.getDescendants(root)) {
                if (atOrUnder(id)) return true;
                if (above(id) && id.isContainer() && plan.getChildren(id).isEmpty()) return true;
            }
        }
        return false;
    }

    /** {@code id} is the selected test or lies under it. */
    boolean atOrUnder(TestIdentifier id) {
        String u = id.getUniqueId();
        return u.equals(uniqueId) || u.startsWith(uniqueId + "/");
    }

    /** {@code id} contains the selected test. */
    boolean above(TestIdentifier id) {
        return uniqueId.startsWith(id.getUniqueId() + "/");
    }

    /** Watches one run: did a test under the selection run, or was the selection skipped or failed as a whole. */
    final class Seen implements TestExecutionListener {
        private volatile boolean seen;

        /** Something answered for the selection: a test under it ran, or a container above it was skipped or failed. */
        boolean ran() {
            return seen;
        }

        @Override
        public void executionStarted(TestIdentifier id) {
            if (id.isTest() && atOrUnder(id)) seen = true;
        }

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            if (atOrUnder(id) || above(id)) seen = true;
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            // A failing @BeforeAll (or engine) ran the selection and failed it: not "no such test".
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL && (atOrUnder(id) || above(id))) seen = true;
        }
    }
}
