package dev.stressgate.gradle.internal;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.gradle.api.GradleException;

/** The stress pass's plan, as written by the orchestrator: which tests of which task, how many times. */
final class StressPlan {

    /** One test to repeat. */
    static final class Candidate {
        final String suite;
        final String name;
        final int repetitions;

        Candidate(String suite, String name, int repetitions) {
            this.suite = suite;
            this.name = name;
            this.repetitions = repetitions;
        }
    }

    /** One Test task of the first pass and its candidates. */
    static final class PlannedTask {
        final String id;
        final String path;
        final List<Candidate> candidates;

        PlannedTask(String id, String path, List<Candidate> candidates) {
            this.id = id;
            this.path = path;
            this.candidates = candidates;
        }

        int maxRepetitions() {
            int max = 0;
            for (Candidate c : candidates) {
                max = Math.max(max, c.repetitions);
            }
            return max;
        }
    }

    final File resultsDir;
    final List<PlannedTask> tasks;

    private StressPlan(File resultsDir, List<PlannedTask> tasks) {
        this.resultsDir = resultsDir;
        this.tasks = tasks;
    }

    static StressPlan read(File file) {
        Object json;
        try {
            json = Json.parse(Files8.read(file));
        } catch (IOException e) {
            throw fail(file, "cannot read: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw fail(file, e.getMessage());
        }
        Map<?, ?> root = object(json, file, "plan");
        String resultsDir = string(root, "resultsDir", file, "plan");
        List<PlannedTask> tasks = new ArrayList<PlannedTask>();
        List<?> rawTasks = list(root.get("tasks"), file, "tasks");
        for (int i = 0; i < rawTasks.size(); i++) {
            String where = "tasks[" + i + "]";
            Map<?, ?> t = object(rawTasks.get(i), file, where);
            String id = string(t, "id", file, where);
            if (!id.matches("[A-Za-z0-9_]+")) {
                throw fail(file, where + ".id: expected letters, digits or '_'; got '" + id + "'");
            }
            List<Candidate> candidates = new ArrayList<Candidate>();
            List<?> rawCandidates = list(t.get("candidates"), file, where + ".candidates");
            for (int j = 0; j < rawCandidates.size(); j++) {
                String cw = where + ".candidates[" + j + "]";
                Map<?, ?> c = object(rawCandidates.get(j), file, cw);
                Object reps = c.get("repetitions");
                if (!(reps instanceof Long) || (Long) reps < 1 || (Long) reps > 1000) {
                    throw fail(file, cw + ".repetitions: expected an integer from 1 to 1000; got " + reps);
                }
                candidates.add(new Candidate(string(c, "suite", file, cw), string(c, "name", file, cw),
                        ((Long) reps).intValue()));
            }
            tasks.add(new PlannedTask(id, string(t, "path", file, where), candidates));
        }
        return new StressPlan(new File(resultsDir).getAbsoluteFile(), Collections.unmodifiableList(tasks));
    }

    private static Map<?, ?> object(Object o, File file, String where) {
        if (!(o instanceof Map)) {
            throw fail(file, where + ": expected an object");
        }
        return (Map<?, ?>) o;
    }

    private static List<?> list(Object o, File file, String where) {
        if (!(o instanceof List)) {
            throw fail(file, where + ": expected an array");
        }
        return (List<?>) o;
    }

    private static String string(Map<?, ?> map, String key, File file, String where) {
        Object v = map.get(key);
        if (!(v instanceof String) || ((String) v).isEmpty()) {
            throw fail(file, where + "." + key + ": expected a non-empty string");
        }
        return (String) v;
    }

    private static GradleException fail(File file, String message) {
        return new GradleException("stress gate: invalid plan " + file + ": " + message);
    }
}
