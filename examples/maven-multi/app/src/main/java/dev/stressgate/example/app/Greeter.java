package dev.stressgate.example.app;

public final class Greeter {
    public String greet(String name) {
        if (name == null || name.isBlank()) return "Hello, stranger";
        return "Hello, " + name.trim();
    }
}
