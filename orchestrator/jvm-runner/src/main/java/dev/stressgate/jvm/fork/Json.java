package dev.stressgate.jvm.fork;

import java.util.Map;

/**
 * Just enough JSON writing for one-line records: strings, string lists and string maps. Shared by
 * the runner jar and the agent jar, so that every line the gate writes escapes the same way.
 */
public final class Json {
    private Json() {}

    /** A JSON string, or {@code null}. */
    public static String str(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /** A JSON array of strings. */
    public static String list(Iterable<String> items) {
        StringBuilder b = new StringBuilder("[");
        for (String s : items) {
            if (b.length() > 1) b.append(',');
            b.append(str(s));
        }
        return b.append(']').toString();
    }

    /** A JSON object of string values, in the map's order. */
    public static String map(Map<String, String> m) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, String> e : m.entrySet()) {
            if (b.length() > 1) b.append(',');
            b.append(str(e.getKey())).append(':').append(str(e.getValue()));
        }
        return b.append('}').toString();
    }
}
