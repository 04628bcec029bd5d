package dev.stressgate.jvm.agent;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import dev.stressgate.jvm.fork.Json;
import dev.stressgate.jvm.fork.JvmJson;

/**
 * Records how Surefire or Failsafe started a fork, for forks whose tests no JUnit Platform listener
 * sees (the JUnit 4, JUnit 4.7 and TestNG providers): the first pass adds
 * {@code -javaagent:<this jar>=<log dir>|<surefire or failsafe>} through {@code maven.surefire.debug}
 * (Surefire appends that to the fork's command line, beside the project's argLine).
 *
 * <p>It writes {@code <log dir>/agent-<pid>-<nanos>.jsonl}: a {@code fork} line (java home, working
 * dir, basedir, the test class path, the runtime class path with Surefire's provider class path,
 * JVM arguments without this agent, system properties as the booter set them, environment, the
 * provider; see {@link JvmJson#forkLine}) once the provider class loads, and a {@code class}
 * line for every class loaded from a directory (the project's own classes), so that the
 * orchestrator knows which fork ran a test class. Class loading is only watched: no byte is changed.
 */
public final class ForkAgent {
    private ForkAgent() {}

    private static final String[][] PROVIDERS = {
        {"org/apache/maven/surefire/junit4/JUnit4Provider", "junit4"},
        {"org/apache/maven/surefire/junitcore/JUnitCoreProvider", "junit47"},
        {"org/apache/maven/surefire/testng/TestNGProvider", "testng"},
        {"org/apache/maven/surefire/junitplatform/JUnitPlatformProvider", "junit-platform"},
    };

    public static void premain(String args, Instrumentation inst) {
        if (args == null) return;
        int bar = args.lastIndexOf('|');
        File dir = new File(bar < 0 ? args : args.substring(0, bar));
        String plugin = bar < 0 ? "surefire" : args.substring(bar + 1);
        final Log log = new Log(dir, plugin);
        inst.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
                if (name == null || redefined != null) return null;
                if (log.provider == null) {
                    for (String[] p : PROVIDERS) {
                        if (p[0].equals(name)) {
                            // The booter has set the fork's system properties by now; tests have not run.
                            log.fork(p[1], (Properties) System.getProperties().clone());
                        }
                    }
                }
                if (fromDirectory(domain) && !name.startsWith("dev/stressgate/")) log.queue.add(name.replace('/', '.'));
                return null;
            }
        });
        Thread writer = new Thread(log, "stress-gate-fork-agent");
        writer.setDaemon(true);
        writer.start();
        Runtime.getRuntime().addShutdownHook(new Thread(log::flush, "stress-gate-fork-agent-exit"));
    }

    private static boolean fromDirectory(ProtectionDomain domain) {
        if (domain == null) return false;
        CodeSource source = domain.getCodeSource();
        URL url = source == null ? null : source.getLocation();
        return url != null && "file".equals(url.getProtocol()) && url.getPath().endsWith("/");
    }

    /** Writes in its own thread: nothing is written while a class is being loaded. */
    private static final class Log implements Runnable {
        private final File dir;
        private final String plugin;
        volatile String provider;
        private volatile Properties properties;
        private boolean forkWritten;
        final ConcurrentLinkedQueue<String> queue = new ConcurrentLinkedQueue<>();
        private OutputStream out;

        Log(File dir, String plugin) {
            this.dir = dir;
            this.plugin = plugin;
        }

        void fork(String provider, Properties properties) {
            this.properties = properties;
            this.provider = provider;
        }

        @Override
        public void run() {
            while (true) {
                flush();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        synchronized void flush() {
            if (provider == null) return; // not a test fork (yet): the classes wait in the queue
            try {
                if (out == null) {
                    dir.mkdirs();
                    String pid = ManagementFactory.getRuntimeMXBean().getName().replaceAll("[^A-Za-z0-9.-]", "_");
                    out = new FileOutputStream(new File(dir, "agent-" + pid + "-" + System.nanoTime() + ".jsonl"), true);
                }
                StringBuilder b = new StringBuilder();
                if (!forkWritten) {
                    b.append(forkLine()).append('\n');
                    forkWritten = true;
                }
                for (String c; (c = queue.poll()) != null; ) b.append("{\"event\":\"class\",\"className\":").append(Json.str(c)).append("}\n");
                if (b.length() > 0) {
                    out.write(b.toString().getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException e) {
                System.err.println("stress-gate: the fork agent cannot write to " + dir + ": " + e);
            }
        }

        private String forkLine() {
            List<String> jvmArgs = new ArrayList<>();
            for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                if (!a.startsWith("-javaagent:") || !a.contains("stress-gate-jvm-runner-agent")) jvmArgs.add(a);
            }
            String agentFields = ",\"agent\":true,\"plugin\":" + Json.str(plugin) + ",\"provider\":" + Json.str(provider);
            return JvmJson.forkLine(agentFields, JvmJson.sorted(properties), jvmArgs, "", Collections.<String, String>emptyMap());
        }
    }
}
