package dev.stressgate.example.app;

/** Greets people. */
public final class Greeter {
    public String greet(String name) {
        String trimmed = name == null ? "" : name.trim();
        return trimmed.isEmpty() ? "Hello, stranger" : "Hello, " + trimmed;
    }
}
