package dev.stressgate.example.app;

/** A plane shape. */
public interface Shape {
    String name();

    double area();
}
