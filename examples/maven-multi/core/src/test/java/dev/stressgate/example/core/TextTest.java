package dev.stressgate.example.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Text: \"quotes\", emoji 🎉 and ümlauts")
class TextTest {
    @Test @DisplayName("shouts \"loud\" 📣") void shouts() { assertEquals("HI", "hi".toUpperCase()); }

    @Test void größe() { assertEquals(5, "größe".length()); }
}
