package dev.stressgate.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's JSON lines with what the kinds' fixtures never produce: names and messages with
 * quotes, backslashes, line breaks, control and non-ASCII characters, over-long failures, and a
 * throwable whose getMessage() throws. Each line must stay one parseable JSON object.
 */
class RecorderTest {

    @Test
    void everyCharacterSurvivesOneLineOfJson(@TempDir Path dir) throws Exception {
        File file = dir.resolve("sub/results.jsonl").toFile();
        Recorder recorder = new Recorder(file);
        String name = "adds(\"a\\b\")[1]\ttab\u0001é漢";
        recorder.started("shop.Cart$Inner", name, new String[] {"[engine:junit-jupiter]/[method:adds()]", "adds()", "línea\r\nzwei"});
        recorder.finished("shop.Cart$Inner", name, null, "FAILURE", 12, new IllegalStateException("multi\nline \"quoted\" \u001f"));
        PrintStream stderr = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, "UTF-8"));
        try {
            recorder.unrunnable(null, "no \"launcher\"\n");
        } finally {
            System.setErr(stderr);
        }
        recorder.close();
        assertTrue(said.toString("UTF-8").startsWith("stress-gate runner: no \"launcher\""), said.toString("UTF-8"));

        List<String> raw = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
        assertEquals(3, raw.size(), raw.toString());
        JsonObject started = JsonParser.parseString(raw.get(0)).getAsJsonObject();
        assertEquals("started", started.get("event").getAsString());
        assertEquals("shop.Cart$Inner", started.get("className").getAsString());
        assertEquals(name, started.get("name").getAsString());
        assertEquals("[engine:junit-jupiter]/[method:adds()]", started.get("uniqueId").getAsString());
        assertEquals("línea\r\nzwei", started.get("displayName").getAsString());
        JsonObject finished = JsonParser.parseString(raw.get(1)).getAsJsonObject();
        assertEquals(Arrays.asList("event", "className", "name", "result", "durationMs", "failure"), Arrays.asList(finished.keySet().toArray()));
        assertEquals(name, finished.get("name").getAsString());
        assertEquals(12, finished.get("durationMs").getAsLong());
        assertEquals("multi\nline \"quoted\" \u001f", finished.getAsJsonObject("failure").get("message").getAsString());
        JsonObject unrunnable = JsonParser.parseString(raw.get(2)).getAsJsonObject();
        assertTrue(unrunnable.get("selector").isJsonNull(), unrunnable.toString());
        assertEquals("no \"launcher\"\n", unrunnable.get("cause").getAsString());
    }

    @Test
    void aFailureIsCutToItsLimitsAndAMessageThatThrowsIsNamed() {
        StringBuilder longText = new StringBuilder();
        while (longText.length() <= Recorder.MAX_TRACE) longText.append("0123456789");
        JsonObject cut = JsonParser.parseString(Recorder.failureJson(new AssertionError(longText.toString()))).getAsJsonObject();
        assertEquals("java.lang.AssertionError", cut.get("type").getAsString());
        assertEquals(Recorder.MAX_MESSAGE, cut.get("message").getAsString().length());
        assertEquals(Recorder.MAX_TRACE, cut.get("trace").getAsString().length());

        Throwable odd = new RuntimeException() {
            private static final long serialVersionUID = 1L;

            @Override
            public String getMessage() {
                throw new UnsupportedOperationException();
            }
        };
        JsonObject named = JsonParser.parseString(Recorder.failureJson(odd)).getAsJsonObject();
        assertEquals("(getMessage() threw java.lang.UnsupportedOperationException)", named.get("message").getAsString());
        assertFalse(named.get("trace").getAsString().isEmpty(), named.toString());
    }
}
