package dev.stressgate.example.app;

/** A circle (added on the feature branch). */
public final class Circle implements Shape {
    private final double radius;

    public Circle(double radius) {
        this.radius = radius;
    }

    @Override
    public String name() {
        return "circle";
    }

    @Override
    public double area() {
        return Math.PI * radius * radius;
    }
}
