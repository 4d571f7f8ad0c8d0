package io.tarn.index.predicate;

import org.testng.annotations.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestColumnStats
{
    @Test
    public void testValidation()
    {
        assertThat(new ColumnStats(1, 2, 0L, 0).rowCount()).isZero();
        assertThat(ColumnStats.unknown(7)).isEqualTo(new ColumnStats(null, null, null, 7));
        assertThatThrownBy(() -> new ColumnStats(null, null, null, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Row count is negative: -1");
        assertThatThrownBy(() -> new ColumnStats(null, null, 4L, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Null count 4 is outside 0..3");
        assertThatThrownBy(() -> new ColumnStats(null, null, -1L, 3))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
