package io.tarn.trino;

import io.airlift.slice.Slices;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.Bitmap;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.Fixed12Block;
import io.trino.spi.block.Int128ArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.MapBlock;
import io.trino.spi.block.RowBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Arrays;
import java.util.Optional;

import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;

/**
 * Turns Arrow vectors (as {@code io.tarn.vector.ArrowTypes} maps Paimon types) into Trino blocks
 * by bulk copies: fixed-width data buffers are copied into primitive arrays in one call, strings
 * and binaries become one byte slice plus offsets, lists, maps and structs become Array, Map and
 * Row blocks over their converted children. Only values whose Trino encoding differs (booleans
 * packed as bits, TIME in picoseconds, timestamps in another unit, CHAR without padding) are
 * converted value by value.
 *
 * <p>A null position of a struct makes its fields null at that position ({@code parentValid}),
 * because a dereferenced field of a null row must read as null.
 */
final class ArrowBlocks
{
    private static final int PICOS_PER_MILLI = 1_000_000_000;

    private ArrowBlocks() {}

    static Block toBlock(FieldVector vector, Type type, int positions)
    {
        return toBlock(vector, type, positions, null);
    }

    private static Block toBlock(FieldVector vector, Type type, int positions, long[] parentValid)
    {
        Optional<long[]> valid = valid(vector, positions, parentValid);
        ArrowType arrowType = vector.getField().getType();
        return switch (arrowType.getTypeID()) {
            case Bool -> booleans((BitVector) vector, positions, valid);
            case Int -> integers((BaseFixedWidthVector) vector, ((ArrowType.Int) arrowType).getBitWidth(), positions, valid);
            case FloatingPoint -> ((ArrowType.FloatingPoint) arrowType).getPrecision() == org.apache.arrow.vector.types.FloatingPointPrecision.SINGLE
                    ? new IntArrayBlock(positions, valid, ints(vector.getDataBuffer(), positions))
                    : new LongArrayBlock(positions, valid, longs(vector.getDataBuffer(), positions));
            case Decimal -> decimals((DecimalVector) vector, (DecimalType) type, positions, valid);
            case Date -> new IntArrayBlock(positions, valid, ints(vector.getDataBuffer(), positions));
            case Time -> times(vector, (TimeType) type, positions, valid);
            case Timestamp -> timestamps((TimeStampVector) vector, type, positions, valid);
            case Utf8, Binary -> variableWidth((BaseVariableWidthVector) vector, type, positions, valid);
            case Map -> map((MapVector) vector, (MapType) type, positions, valid);
            case List -> array((ListVector) vector, (ArrayType) type, positions, valid);
            case Struct -> row((StructVector) vector, (RowType) type, positions, valid);
            default -> throw new IllegalArgumentException("Unsupported Arrow type " + arrowType + " for Trino type " + type);
        };
    }

    /**
     * The Trino validity bitmap of the first {@code positions} values, or empty when none is null.
     * Arrow's validity buffer has the layout Trino's {@link Bitmap} uses for validity: bit i (least
     * significant first, in little-endian order) is set when value i is valid, so its bytes are
     * copied into the words as they are; a null struct position then clears the bit of its fields
     * ({@code parentValid}).
     */
    private static Optional<long[]> valid(FieldVector vector, int positions, long[] parentValid)
    {
        if (vector.getNullCount() == 0 && parentValid == null) {
            return Optional.empty();
        }
        long[] valid;
        if (vector.getNullCount() == 0) {
            valid = Bitmap.allocateWords(positions, true);
        }
        else {
            valid = new long[Bitmap.wordsForBits(positions)];
            int bytes = (positions + 7) >>> 3;
            ByteBuffer validity = buffer(vector.getValidityBuffer(), bytes);
            int fullWords = bytes >>> 3;
            validity.asLongBuffer().get(valid, 0, fullWords);
            for (int i = fullWords * Long.BYTES; i < bytes; i++) {
                valid[i >>> 3] |= (validity.get(i) & 0xFFL) << ((i & 7) * Byte.SIZE);
            }
        }
        if (parentValid != null) {
            for (int i = 0; i < valid.length; i++) {
                valid[i] &= parentValid[i];
            }
        }
        return Bitmap.hasUnsetBit(valid, 0, positions) ? Optional.of(valid) : Optional.empty();
    }

    private static Block booleans(BitVector vector, int positions, Optional<long[]> valid)
    {
        byte[] values = new byte[positions];
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < positions; i++) {
            values[i] = (byte) ((data.getByte(i >>> 3) >>> (i & 7)) & 1);
        }
        return new ByteArrayBlock(positions, valid, values);
    }

    private static Block integers(BaseFixedWidthVector vector, int bitWidth, int positions, Optional<long[]> valid)
    {
        ArrowBuf data = vector.getDataBuffer();
        return switch (bitWidth) {
            case 8 -> {
                byte[] values = new byte[positions];
                data.getBytes(0, values);
                yield new ByteArrayBlock(positions, valid, values);
            }
            case 16 -> {
                short[] values = new short[positions];
                buffer(data, positions * 2L).asShortBuffer().get(values);
                yield new ShortArrayBlock(positions, valid, values);
            }
            case 32 -> new IntArrayBlock(positions, valid, ints(data, positions));
            case 64 -> new LongArrayBlock(positions, valid, longs(data, positions));
            default -> throw new IllegalArgumentException("Unsupported integer width " + bitWidth);
        };
    }

    private static ByteBuffer buffer(ArrowBuf data, long length)
    {
        return data.nioBuffer(0, Math.toIntExact(length)).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static int[] ints(ArrowBuf data, int positions)
    {
        int[] values = new int[positions];
        buffer(data, positions * 4L).asIntBuffer().get(values);
        return values;
    }

    private static long[] longs(ArrowBuf data, int positions)
    {
        long[] values = new long[positions];
        buffer(data, positions * 8L).asLongBuffer().get(values);
        return values;
    }

    private static Block decimals(DecimalVector vector, DecimalType type, int positions, Optional<long[]> valid)
    {
        if (type.isShort()) {
            // the low word of each 16-byte value, read in place: a copy of both words first cost as much again
            ArrowBuf data = vector.getDataBuffer();
            if ((long) positions * DecimalVector.TYPE_WIDTH > data.capacity()) {
                throw new IllegalStateException("Decimal data buffer of " + data.capacity() + " bytes for " + positions + " values");
            }
            long address = data.memoryAddress();
            long[] values = new long[positions];
            for (int i = 0; i < positions; i++) {
                values[i] = MemoryUtil.getLong(address + (long) i * DecimalVector.TYPE_WIDTH);
            }
            return new LongArrayBlock(positions, valid, values);
        }
        long[] words = longs(vector.getDataBuffer(), positions * 2);
        // Arrow stores the low word first, Trino's Int128 the high word first
        for (int i = 0; i < positions; i++) {
            long low = words[2 * i];
            words[2 * i] = words[2 * i + 1];
            words[2 * i + 1] = low;
        }
        return new Int128ArrayBlock(positions, valid, words);
    }

    private static Block times(FieldVector vector, TimeType type, int positions, Optional<long[]> valid)
    {
        int[] millis = ints(vector.getDataBuffer(), positions);
        long[] picos = new long[positions];
        for (int i = 0; i < positions; i++) {
            picos[i] = millis[i] * (long) PICOS_PER_MILLI;
        }
        return new LongArrayBlock(positions, valid, picos);
    }

    private static Block timestamps(TimeStampVector vector, Type type, int positions, Optional<long[]> valid)
    {
        long[] raw = longs(vector.getDataBuffer(), positions);
        TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
        if (type instanceof TimestampType timestamp) {
            if (timestamp.isShort()) {
                long factor = switch (unit) {
                    case MILLISECOND -> 1000;
                    case MICROSECOND -> 1;
                    default -> 0;
                };
                if (factor == 1) {
                    return new LongArrayBlock(positions, valid, raw);
                }
                for (int i = 0; i < positions; i++) {
                    raw[i] = factor == 0 ? Math.floorDiv(raw[i], 1000) : raw[i] * factor;
                }
                return new LongArrayBlock(positions, valid, raw);
            }
            int[] fixed12 = new int[positions * 3];
            for (int i = 0; i < positions; i++) {
                long micros;
                int picosOfMicro;
                switch (unit) {
                    case NANOSECOND -> {
                        micros = Math.floorDiv(raw[i], 1000);
                        picosOfMicro = (int) Math.floorMod(raw[i], 1000) * 1000;
                    }
                    case MICROSECOND -> {
                        micros = raw[i];
                        picosOfMicro = 0;
                    }
                    default -> {
                        micros = raw[i] * 1000;
                        picosOfMicro = 0;
                    }
                }
                Fixed12Block.encodeFixed12(micros, picosOfMicro, fixed12, i);
            }
            return new Fixed12Block(positions, valid, fixed12);
        }
        TimestampWithTimeZoneType zoned = (TimestampWithTimeZoneType) type;
        long[] millis = new long[positions];
        int[] picosOfMilli = new int[positions];
        for (int i = 0; i < positions; i++) {
            switch (unit) {
                case NANOSECOND -> {
                    millis[i] = Math.floorDiv(raw[i], 1_000_000);
                    picosOfMilli[i] = (int) Math.floorMod(raw[i], 1_000_000) * 1000;
                }
                case MICROSECOND -> {
                    millis[i] = Math.floorDiv(raw[i], 1000);
                    picosOfMilli[i] = (int) Math.floorMod(raw[i], 1000) * 1_000_000;
                }
                default -> millis[i] = raw[i];
            }
        }
        if (zoned.isShort()) {
            for (int i = 0; i < positions; i++) {
                millis[i] = packDateTimeWithZone(millis[i], UTC_KEY);
            }
            return new LongArrayBlock(positions, valid, millis);
        }
        int[] fixed12 = new int[positions * 3];
        for (int i = 0; i < positions; i++) {
            Fixed12Block.encodeFixed12(packDateTimeWithZone(millis[i], UTC_KEY), picosOfMilli[i], fixed12, i);
        }
        return new Fixed12Block(positions, valid, fixed12);
    }

    private static Block variableWidth(BaseVariableWidthVector vector, Type type, int positions, Optional<long[]> valid)
    {
        int[] offsets = ints(vector.getOffsetBuffer(), positions + 1);
        int start = offsets[0];
        int end = offsets[positions];
        byte[] data = new byte[end - start];
        vector.getDataBuffer().getBytes(start, data);
        if (start != 0) {
            for (int i = 0; i <= positions; i++) {
                offsets[i] -= start;
            }
        }
        if (type instanceof CharType) {
            return trimmedChars(data, offsets, positions, valid);
        }
        return new VariableWidthBlock(positions, Slices.wrappedBuffer(data), offsets, valid);
    }

    /**
     * Trino keeps CHAR values without their trailing spaces. Values usually have none (a CHAR(1)
     * flag, a code of full length): then the bytes are taken as they are.
     */
    private static Block trimmedChars(byte[] data, int[] offsets, int positions, Optional<long[]> valid)
    {
        int first = 0;
        while (first < positions && !endsWithSpace(data, offsets[first], offsets[first + 1])) {
            first++;
        }
        if (first == positions) {
            return new VariableWidthBlock(positions, Slices.wrappedBuffer(data), offsets, valid);
        }
        // values before the first padded one keep their place
        byte[] trimmed = new byte[data.length];
        int length = offsets[first];
        System.arraycopy(data, 0, trimmed, 0, length);
        int[] newOffsets = Arrays.copyOf(offsets, positions + 1);
        for (int i = first; i < positions; i++) {
            int start = offsets[i];
            int end = offsets[i + 1];
            while (end > start && data[end - 1] == ' ') {
                end--;
            }
            System.arraycopy(data, start, trimmed, length, end - start);
            length += end - start;
            newOffsets[i + 1] = length;
        }
        return new VariableWidthBlock(positions, Slices.wrappedBuffer(trimmed, 0, length), newOffsets, valid);
    }

    private static boolean endsWithSpace(byte[] data, int start, int end)
    {
        return end > start && data[end - 1] == ' ';
    }

    private static Block array(ListVector vector, ArrayType type, int positions, Optional<long[]> valid)
    {
        int[] offsets = ints(vector.getOffsetBuffer(), positions + 1);
        Block elements = toBlock(vector.getDataVector(), type.getElementType(), offsets[positions], null);
        EntryRange range = compactNullEntries(offsets, positions, valid);
        return ArrayBlock.fromElementBlock(positions, valid, range.offsets(), range.select(elements));
    }

    private static Block map(MapVector vector, MapType type, int positions, Optional<long[]> valid)
    {
        int[] offsets = ints(vector.getOffsetBuffer(), positions + 1);
        StructVector entries = (StructVector) vector.getDataVector();
        List<FieldVector> children = entries.getChildrenFromFields();
        Block keys = toBlock(children.get(0), type.getKeyType(), offsets[positions], null);
        Block values = toBlock(children.get(1), type.getValueType(), offsets[positions], null);
        EntryRange range = compactNullEntries(offsets, positions, valid);
        return MapBlock.fromKeyValueBlock(valid, range.offsets(), range.select(keys), range.select(values), type);
    }

    private static Block row(StructVector vector, RowType type, int positions, Optional<long[]> valid)
    {
        List<FieldVector> children = vector.getChildrenFromFields();
        List<Type> fieldTypes = type.getTypeParameters();
        Block[] fields = new Block[fieldTypes.size()];
        long[] rowValid = valid.orElse(null);
        for (int i = 0; i < fields.length; i++) {
            fields[i] = toBlock(children.get(i), fieldTypes.get(i), positions, rowValid);
        }
        return RowBlock.fromNotNullSuppressedFieldBlocks(positions, valid, fields);
    }

    /**
     * Trino requires null arrays and maps to own no entries; Arrow allows entries under a null.
     * When a null position owns entries, the offsets are rebuilt without them and the element
     * blocks are narrowed to the kept entries.
     */
    private static EntryRange compactNullEntries(int[] offsets, int positions, Optional<long[]> valid)
    {
        boolean clean = offsets[0] == 0;
        if (valid.isPresent()) {
            long[] isValid = valid.get();
            for (int i = 0; i < positions && clean; i++) {
                clean = Bitmap.isSet(isValid, 0, i) || offsets[i] == offsets[i + 1];
            }
        }
        if (clean) {
            return new EntryRange(offsets, null, 0);
        }
        int[] newOffsets = new int[positions + 1];
        int[] kept = new int[offsets[positions] - offsets[0]];
        int count = 0;
        for (int i = 0; i < positions; i++) {
            if (valid.isEmpty() || Bitmap.isSet(valid.get(), 0, i)) {
                for (int entry = offsets[i]; entry < offsets[i + 1]; entry++) {
                    kept[count++] = entry;
                }
            }
            newOffsets[i + 1] = count;
        }
        return new EntryRange(newOffsets, kept, count);
    }

    private record EntryRange(int[] offsets, int[] kept, int keptCount)
    {
        Block select(Block entries)
        {
            return kept == null ? entries : entries.copyPositions(kept, 0, keptCount);
        }
    }
}
