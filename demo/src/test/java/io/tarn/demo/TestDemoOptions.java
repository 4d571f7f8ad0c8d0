package io.tarn.demo;

import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestDemoOptions
{
    @Test
    public void testDefaults()
    {
        DemoOptions options = DemoOptions.parse(new String[0]);
        assertThat(options.warehouse()).isEmpty();
        assertThat(options.query()).isEmpty();
        assertThat(options.stop()).isFalse();
        assertThat(options.interactive()).isFalse();
        assertThat(options.orders()).isEqualTo(300_000);
    }

    @Test
    public void testEveryOption()
    {
        DemoOptions options = DemoOptions.parse(new String[] {"--interactive", "--warehouse", "/tmp/w/../w2", "--query", "SELECT 1", "--orders", "1000"});
        assertThat(options.warehouse()).isEqualTo(Optional.of(Path.of("/tmp/w2")));
        assertThat(options.query()).isEqualTo(Optional.of("SELECT 1"));
        assertThat(options.interactive()).isTrue();
        assertThat(options.orders()).isEqualTo(1000);
        assertThat(DemoOptions.parse(new String[] {"--stop"}).stop()).isTrue();
        DemoOptions cluster = DemoOptions.parse(new String[] {"--cluster", "--orders", "500"});
        assertThat(cluster.cluster()).isTrue();
        assertThat(cluster.orders()).isEqualTo(500);
        assertThat(options.cluster()).isFalse();
    }

    @Test
    public void testMistakes()
    {
        assertThatThrownBy(() -> DemoOptions.parse(new String[] {"--query"})).hasMessage("--query needs a value");
        assertThatThrownBy(() -> DemoOptions.parse(new String[] {"--orders", "many"})).hasMessage("--orders needs a whole number: many");
        assertThatThrownBy(() -> DemoOptions.parse(new String[] {"--orders", "0"})).hasMessage("--orders must be positive: 0");
        assertThatThrownBy(() -> DemoOptions.parse(new String[] {"--stop", "--query", "SELECT 1"})).hasMessage("--stop takes no other option");
        assertThatThrownBy(() -> DemoOptions.parse(new String[] {"--verbose"})).hasMessage("Unknown option: --verbose");
        assertThatThrownBy(() -> DemoOptions.parse(new String[] {"--cluster", "--warehouse", "/tmp/w"})).hasMessage("--cluster takes only --orders");
    }
}
