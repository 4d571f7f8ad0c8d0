package io.tarn.index.predicate;

import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestLiterals
{
    @Test
    public void testCoerceIntegers()
    {
        assertThat(Literals.coerce(DataTypes.bigint(), 5)).isEqualTo(5L);
        assertThat(Literals.coerce(DataTypes.integer(), 5L)).isEqualTo(5);
        assertThat(Literals.coerce(DataTypes.tinyint(), -128)).isEqualTo((byte) -128);
        assertThat(Literals.coerce(DataTypes.smallint(), (byte) 3)).isEqualTo((short) 3);
        assertThat(Literals.coerce(DataTypes.bigint(), BigInteger.TEN)).isEqualTo(10L);
        assertThat(Literals.coerce(DataTypes.integer(), 7)).isEqualTo(7);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.tinyint(), 128))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot convert literal 128 of class java.lang.Integer exactly to type TINYINT")
                .hasCauseInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.integer(), 1L << 40))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.integer(), 1.0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.integer(), "1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.integer(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Literal for type INT is null");
    }

    @Test
    public void testCoerceFloatingPoint()
    {
        assertThat(Literals.coerce(DataTypes.doubleType(), 0.5f)).isEqualTo(0.5);
        assertThat(Literals.coerce(DataTypes.doubleType(), 3)).isEqualTo(3.0);
        assertThat(Literals.coerce(DataTypes.floatType(), 0.5)).isEqualTo(0.5f);
        assertThat(Literals.coerce(DataTypes.floatType(), Double.NaN)).isEqualTo(Float.NaN);
        // 2^53 + 1 has no exact double, 0.1 no exact float
        assertThatThrownBy(() -> Literals.coerce(DataTypes.doubleType(), (1L << 53) + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.floatType(), 0.1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    public void testCoerceDecimal()
    {
        assertThat(Literals.coerce(DataTypes.decimal(10, 2), 5)).isEqualTo(new BigDecimal("5.00"));
        assertThat(Literals.coerce(DataTypes.decimal(10, 2), 0.1)).isEqualTo(new BigDecimal("0.10"));
        assertThat(Literals.coerce(DataTypes.decimal(10, 2), 0.1f)).isEqualTo(new BigDecimal("0.10"));
        // a BigDecimal is already the internal class and is kept as given
        assertThat(Literals.coerce(DataTypes.decimal(10, 2), new BigDecimal("0.5"))).isEqualTo(new BigDecimal("0.5"));
        assertThatThrownBy(() -> Literals.coerce(DataTypes.decimal(10, 2), 0.125))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.decimal(3, 2), 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.decimal(10, 2), Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    public void testCoerceTemporal()
    {
        assertThat(Literals.coerce(DataTypes.date(), LocalDate.of(1970, 1, 11))).isEqualTo(10);
        assertThat(Literals.coerce(DataTypes.date(), LocalDate.of(1969, 12, 31))).isEqualTo(-1);
        assertThat(Literals.coerce(DataTypes.time(3), LocalTime.of(0, 0, 1, 5_000_000))).isEqualTo(1005);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.time(3), LocalTime.of(0, 0, 0, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Literals.coerce(DataTypes.timestamp(6), LocalDateTime.of(1970, 1, 1, 0, 0, 1, 2_003_000)))
                .isEqualTo(new Timestamp(1002, 3000));
        assertThat(Literals.coerce(DataTypes.timestampLtz(6), Instant.ofEpochSecond(-1, 999_999_999)))
                .isEqualTo(new Timestamp(-1, 999_999));
        // wall-clock and instant types do not accept each other's Java classes
        assertThatThrownBy(() -> Literals.coerce(DataTypes.timestamp(6), Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Literals.coerce(DataTypes.timestampLtz(6), LocalDateTime.of(1970, 1, 1, 0, 0)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
