package dev.stressgate.jvm;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One repetition's request file, as the orchestrator writes it (UTF-8 lines; every value has
 * {@code \\}, {@code \n}, {@code \r} and {@code \t} escaped):
 * <ul>
 * <li>{@code kind junit4|platform|testng}: the runner kind;</li>
 * <li>{@code out <file>}: where the results go (JSON lines);</li>
 * <li>{@code property <key>=<value>}: a system property set before any test code loads, as
 *     Surefire's booter and Gradle's worker set a fork's;</li>
 * <li>{@code config <key>=<value>}: a JUnit Platform configuration parameter;</li>
 * <li>{@code select <unique id>}: a JUnit Platform test;</li>
 * <li>{@code test <class> TAB <name> [TAB <method> TAB <invocation>]}: a JUnit 4 or TestNG test by
 *     class and name as the JUnit XML names it (TestNG: also the method and the 0-based invocation
 *     of a data-provider method, -1 for all).</li>
 * <li>{@code describe no}: write no {@code jvm} line (describing the JVM loads the JDK's
 *     management classes: the orchestrator asks once per target);</li>
 * <li>{@code order sequence}: run each {@code select} or {@code test} line on its own, in the
 *     request's order, one after another in this JVM, a line repeated running again (the order
 *     probe); each step starts with a {@code {"event":"step","index":i}} line in the results.</li>
 * </ul>
 * Several {@code select} or {@code test} lines run in their order, each recorded apart. Other
 * lines are ignored. The runner never reads standard input: the orchestrator starts it at end of
 * input, as Gradle's test worker has it.
 */
final class Request {
    String kind = "junit4";
    File out;
    /** {@code order sequence}: each selection runs alone, in order (see {@link #steps}). */
    boolean sequence;
    /** Write the {@code jvm} line (unless {@code describe no}). */
    boolean describe = true;
    final Map<String, String> properties = new LinkedHashMap<>();
    final Map<String, String> config = new LinkedHashMap<>();
    final List<String> uniqueIds = new ArrayList<>();
    final List<String[]> tests = new ArrayList<>();

    static Request read(File file) throws IOException {
        Request r = new Request();
        for (String line : Files.readAllLines(file.toPath(), StandardCharsets.UTF_8)) {
            int space = line.indexOf(' ');
            if (space < 0) continue;
            String key = line.substring(0, space);
            String raw = line.substring(space + 1);
            int eq = raw.indexOf('=');
            int tab = raw.indexOf('\t');
            switch (key) {
                case "kind": r.kind = raw; break;
                case "order": r.sequence = "sequence".equals(raw); break;
                case "describe": r.describe = !"no".equals(raw); break;
                case "out": r.out = new File(unescape(raw)); break;
                case "select": r.uniqueIds.add(unescape(raw)); break;
                case "property": if (eq > 0) r.properties.put(unescape(raw.substring(0, eq)), unescape(raw.substring(eq + 1))); break;
                case "config": if (eq > 0) r.config.put(unescape(raw.substring(0, eq)), unescape(raw.substring(eq + 1))); break;
                case "test":
                    if (tab > 0) {
                        String[] parts = raw.split("\t", -1);
                        for (int i = 0; i < parts.length; i++) parts[i] = unescape(parts[i]);
                        r.tests.add(parts);
                    }
                    break;
                default: break;
            }
        }
        return r;
    }

    /** A request per selection, in order, each with this request's kind, output, properties and configuration. */
    List<Request> steps() {
        List<Request> steps = new ArrayList<>();
        for (String id : uniqueIds) {
            Request step = sameSettings();
            step.uniqueIds.add(id);
            steps.add(step);
        }
        for (String[] test : tests) {
            Request step = sameSettings();
            step.tests.add(test);
            steps.add(step);
        }
        return steps;
    }

    private Request sameSettings() {
        Request r = new Request();
        r.kind = kind;
        r.out = out;
        r.properties.putAll(properties);
        r.config.putAll(config);
        return r;
    }

    /** How an unrunnable line names a {@code test} selection: its fields joined by a tab, as the request has them. */
    static String selector(String[] test) {
        return String.join("\t", test);
    }

    static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                b.append(c);
                continue;
            }
            char next = s.charAt(++i);
            b.append(next == 'n' ? '\n' : next == 'r' ? '\r' : next == 't' ? '\t' : next);
        }
        return b.toString();
    }
}
