package io.tarn.storage.read.merge;

import io.tarn.storage.binary.MurmurHash;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

import static java.util.Objects.requireNonNull;

/**
 * A value wrapped so that a {@link java.util.HashMap} or {@link java.util.HashSet} iterates it in
 * the order Paimon's would: its {@link #hashCode()} is the {@code hashCode()} of Paimon's internal
 * object for the value ({@code BinaryString}, {@code Decimal}, {@code Timestamp}, boxed
 * primitives). Paimon's {@code collect} (distinct), {@code merge_map} and {@code nested_update}
 * aggregates emit their hash containers in iteration order, and that order is what Paimon writes
 * and reads back, so reproducing the hashes reproduces Paimon's element order.
 *
 * <p>Binary values hash by content here; Paimon hashes {@code byte[]} by identity, an order no
 * reader can reproduce.
 */
record PaimonHashKey(DataType type, Object value)
{
    PaimonHashKey
    {
        requireNonNull(type, "type is null");
    }

    @Override
    public int hashCode()
    {
        if (value == null) {
            return 0;
        }
        return switch (type.root()) {
            case CHAR, VARCHAR -> MurmurHash.hash(((String) value).getBytes(StandardCharsets.UTF_8));
            case BINARY, VARBINARY -> Arrays.hashCode((byte[]) value);
            case TIMESTAMP, TIMESTAMP_LTZ -> timestampHash((Timestamp) value);
            // boxed primitives and BigDecimal (Paimon's Decimal hashes as its BigDecimal) hash alike
            default -> value.hashCode();
        };
    }

    @Override
    public boolean equals(Object other)
    {
        if (!(other instanceof PaimonHashKey that)) {
            return false;
        }
        if (value instanceof byte[] bytes && that.value instanceof byte[] otherBytes) {
            return Arrays.equals(bytes, otherBytes);
        }
        return Objects.equals(value, that.value);
    }

    private static int timestampHash(Timestamp timestamp)
    {
        long millis = timestamp.epochMillis();
        int hash = (int) millis ^ (int) (millis >> 32);
        return 31 * hash + timestamp.nanoOfMillisecond();
    }
}
