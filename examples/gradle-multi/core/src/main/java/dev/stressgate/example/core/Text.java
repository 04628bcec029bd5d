package dev.stressgate.example.core;

import java.util.Locale;

/** Text helpers. */
public final class Text {
    private Text() {
    }

    public static String shout(String s) {
        return s.toUpperCase(Locale.ROOT) + "!";
    }
}
