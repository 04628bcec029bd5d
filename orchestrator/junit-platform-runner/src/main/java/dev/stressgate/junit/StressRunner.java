package dev.stressgate.junit;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * One stress repetition in a fresh JVM: runs exactly the tests whose unique IDs the request file
 * names (so a new invocation {@code [3]} does not rerun {@code [1]} and {@code [2]}), with the
 * fork's JUnit configuration parameters, and records them to the output file.
 *
 * <p>Request file (UTF-8 lines, each value with {@code \\}, {@code \n} and {@code \r} escaped):
 * {@code out <file>}, {@code property <key>=<value>} (set before the launcher starts, as Surefire's
 * booter sets a fork's system properties), {@code config <key>=<value>}, {@code select <unique id>},
 * and {@code wait}: start up and discover, then wait for a line {@code go} on standard input before
 * running anything (end of input instead: exit without running). So the next repetition's JVM
 * can start while the current one runs, and no test code of two repetitions ever overlaps.
 */
public final class StressRunner {
    private StressRunner() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: StressRunner <request file>");
            System.exit(2);
        }
        File out = null;
        boolean wait = false;
        Map<String, String> config = new HashMap<>();
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String line : Files.readAllLines(new File(args[0]).toPath(), StandardCharsets.UTF_8)) {
            int space = line.indexOf(' ');
            if (line.equals("wait")) wait = true;
            if (space < 0) continue;
            String kind = line.substring(0, space);
            String raw = line.substring(space + 1);
            int eq = raw.indexOf('=');
            if (kind.equals("out")) out = new File(unescape(raw));
            else if (kind.equals("select")) selectors.add(DiscoverySelectors.selectUniqueId(unescape(raw)));
            else if (kind.equals("config") && eq > 0) config.put(unescape(raw.substring(0, eq)), unescape(raw.substring(eq + 1)));
            else if (kind.equals("property") && eq > 0) System.setProperty(unescape(raw.substring(0, eq)), unescape(raw.substring(eq + 1)));
        }
        if (out == null) {
            System.err.println("stress-gate: the request names no output file");
            System.exit(2);
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
            .selectors(selectors)
            .configurationParameters(config)
            .build();
        Launcher launcher = LauncherFactory.create();
        TestPlan plan = launcher.discover(request);
        if (wait) {
            String go = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (!"go".equals(go)) System.exit(0);
        }
        try {
            launcher.execute(plan, new RecordingListener(out));
        } catch (NoSuchMethodError | UnsupportedOperationException e) {
            // A platform before 1.4 cannot execute a discovered plan: discover again as it runs.
            launcher.execute(request, new RecordingListener(out));
        }
        // As Surefire's forked booter does: threads a test left running do not keep the JVM alive.
        System.exit(0);
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                b.append(c);
                continue;
            }
            char next = s.charAt(++i);
            b.append(next == 'n' ? '\n' : next == 'r' ? '\r' : next);
        }
        return b.toString();
    }
}
