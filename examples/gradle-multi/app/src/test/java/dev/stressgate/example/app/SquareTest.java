package dev.stressgate.example.app;

public class SquareTest extends AbstractShapeTest {
    @Override
    protected Shape create() {
        return new Square(2);
    }
}
