package dev.stressgate.example.app;

/** New subclass: the inherited tests are new identities (CircleTest.hasName, CircleTest.hasPositiveArea). */
public class CircleTest extends AbstractShapeTest {
    @Override
    protected Shape create() {
        return new Circle(1);
    }
}
