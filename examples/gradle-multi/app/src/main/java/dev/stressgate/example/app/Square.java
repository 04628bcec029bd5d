package dev.stressgate.example.app;

/** A square. */
public final class Square implements Shape {
    private final double side;

    public Square(double side) {
        this.side = side;
    }

    @Override
    public String name() {
        return "square";
    }

    @Override
    public double area() {
        return side * side;
    }
}
