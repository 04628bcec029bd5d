package dev.stressgate.junit;

import java.io.File;
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
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * One stress repetition in a fresh JVM: runs exactly the tests whose unique IDs the request file
 * names (so a new invocation {@code [3]} does not rerun {@code [1]} and {@code [2]}), with the
 * fork's JUnit configuration parameters, and records them to the output file.
 *
 * <p>Request file (UTF-8 lines, each value with {@code \\}, {@code \n} and {@code \r} escaped):
 * {@code out <file>}, {@code property <key>=<value>} (set before the launcher starts, as Surefire's
 * booter sets a fork's system properties), {@code config <key>=<value>}, {@code select <unique id>}.
 */
public final class StressRunner {
    private StressRunner() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: StressRunner <request file>");
            System.exit(2);
        }
        File out = null;
        Map<String, String> config = new HashMap<>();
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String line : Files.readAllLines(new File(args[0]).toPath(), StandardCharsets.UTF_8)) {
            int space = line.indexOf(' ');
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
        launcher.execute(request, new RecordingListener(out));
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
