package io.tarn.vector.writer;

import org.testng.annotations.Test;

import java.util.Map;

import static io.tarn.vector.writer.WriteOptionValues.booleanOption;
import static io.tarn.vector.writer.WriteOptionValues.doubleOption;
import static io.tarn.vector.writer.WriteOptionValues.intOption;
import static io.tarn.vector.writer.WriteOptionValues.longOption;
import static io.tarn.vector.writer.WriteOptionValues.memorySize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestWriteOptionValues
{
    private static final Map<String, String> OPTIONS = Map.of(
            "n", " 42 ",
            "big", "4294967296",
            "fpp", "0.05",
            "yes", "TRUE",
            "word", "lots");

    @Test
    public void testValuesAndDefaults()
    {
        assertThat(intOption(OPTIONS, "n", 7)).isEqualTo(42);
        assertThat(intOption(OPTIONS, "missing", 7)).isEqualTo(7);
        assertThat(longOption(OPTIONS, "big", 0)).isEqualTo(4_294_967_296L);
        assertThat(doubleOption(OPTIONS, "fpp", 0.01)).isEqualTo(0.05);
        assertThat(doubleOption(OPTIONS, "missing", 0.01)).isEqualTo(0.01);
        assertThat(booleanOption(OPTIONS, "yes", false)).isTrue();
        assertThat(booleanOption(OPTIONS, "missing", true)).isTrue();
    }

    @Test
    public void testMalformedValuesNameTheirKey()
    {
        assertThatThrownBy(() -> intOption(OPTIONS, "big", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Option big is out of range: 4294967296");
        assertThatThrownBy(() -> longOption(OPTIONS, "word", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Option word is not a number: lots");
        assertThatThrownBy(() -> doubleOption(OPTIONS, "word", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Option word is not a number: lots");
        assertThatThrownBy(() -> booleanOption(OPTIONS, "n", false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Option n is not a boolean:  42 ");
    }

    @Test
    public void testMemorySizes()
    {
        assertThat(memorySize("k", "100")).isEqualTo(100);
        assertThat(memorySize("k", "2kb")).isEqualTo(2048);
        assertThat(memorySize("k", "256 MB")).isEqualTo(268_435_456L);
        assertThat(memorySize("k", "1 gb")).isEqualTo(1_073_741_824L);
        assertThatThrownBy(() -> memorySize("file.block-size", "lots"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("file.block-size");
        assertThatThrownBy(() -> memorySize("file.block-size", "99999999999 tb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("file.block-size");
    }
}
