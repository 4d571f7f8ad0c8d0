package io.tarn.storage.fileindex;

import io.tarn.index.fileindex.BitmapIndex;
import io.tarn.index.fileindex.BloomFilterIndex;
import io.tarn.index.fileindex.CorruptIndexException;
import io.tarn.index.fileindex.FileIndexFile;
import io.tarn.index.fileindex.FileIndexHash;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.fileindex.FileIndexFormat;
import org.apache.paimon.fileindex.FileIndexReader;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.FileIndexWriter;
import org.apache.paimon.fileindex.FileIndexer;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResult;
import org.apache.paimon.fs.ByteArraySeekableStream;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.FieldRef;
import org.apache.paimon.shade.net.openhft.hashing.LongHashFunction;
import org.apache.paimon.types.RowType;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tarn's file-index bytes against Apache Paimon's own writers and readers
 * ({@code org.apache.paimon.fileindex}): Bloom filters are byte-identical for every supported
 * type; bitmap indexes of both versions written by either side are read by the other with the
 * rows the input holds; the container written by either side is read by the other.
 */
public class TestFileIndexBytesAgainstPaimon
{
    /**
     * A column type on both sides and a generator of values: Tarn's internal value and Paimon's.
     */
    private record TypeCase(String name, DataType tarn, org.apache.paimon.types.DataType paimon, IntFunction<Object> values, Function<Object, Object> toPaimon)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    private static List<TypeCase> typeCases()
    {
        Function<Object, Object> same = value -> value;
        Function<Object, Object> string = value -> BinaryString.fromString((String) value);
        Function<Object, Object> timestamp = value -> org.apache.paimon.data.Timestamp.fromEpochMillis(((Timestamp) value).epochMillis(), ((Timestamp) value).nanoOfMillisecond());
        return List.of(
                new TypeCase("tinyint", DataTypes.tinyint(), org.apache.paimon.types.DataTypes.TINYINT(), i -> (byte) (i * 37), same),
                new TypeCase("smallint", DataTypes.smallint(), org.apache.paimon.types.DataTypes.SMALLINT(), i -> (short) (i * 977 - 5000), same),
                new TypeCase("int", DataTypes.integer(), org.apache.paimon.types.DataTypes.INT(), i -> i * 1_000_003 - 7, same),
                new TypeCase("bigint", DataTypes.bigint(), org.apache.paimon.types.DataTypes.BIGINT(), i -> (long) i * 0x1234_5678_9L - 99, same),
                new TypeCase("float", DataTypes.floatType(), org.apache.paimon.types.DataTypes.FLOAT(), i -> i * 1.25f - 3, same),
                new TypeCase("double", DataTypes.doubleType(), org.apache.paimon.types.DataTypes.DOUBLE(), i -> i * -0.3 + 1e10, same),
                new TypeCase("date", DataTypes.date(), org.apache.paimon.types.DataTypes.DATE(), i -> 19_000 + i, same),
                new TypeCase("time", DataTypes.time(3), org.apache.paimon.types.DataTypes.TIME(3), i -> i * 61_001, same),
                new TypeCase("timestamp3", DataTypes.timestamp(3), org.apache.paimon.types.DataTypes.TIMESTAMP(3), i -> Timestamp.ofMillis(1_700_000_000_000L + i * 1_234L), timestamp),
                new TypeCase("timestamp6", DataTypes.timestamp(6), org.apache.paimon.types.DataTypes.TIMESTAMP(6), i -> new Timestamp(-86_400_000L + i * 77L, (i % 1000) * 1000), timestamp),
                new TypeCase("timestamp_ltz9", DataTypes.timestampLtz(9), org.apache.paimon.types.DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(9), i -> new Timestamp(5L * i, i % 1_000_000), timestamp),
                new TypeCase("string", DataTypes.string(), org.apache.paimon.types.DataTypes.STRING(), i -> "v-" + i + (i % 3 == 0 ? "-ü€𝄞" : "") + "x".repeat(i % 40), string),
                new TypeCase("char", DataTypes.charType(10), org.apache.paimon.types.DataTypes.CHAR(10), i -> "c" + i, string),
                new TypeCase("boolean", DataTypes.booleanType(), org.apache.paimon.types.DataTypes.BOOLEAN(), i -> i % 2 == 0, same),
                new TypeCase("varbinary", DataTypes.bytes(), org.apache.paimon.types.DataTypes.BYTES(), i -> ("b" + i + "y".repeat(i % 50)).getBytes(StandardCharsets.UTF_8), same));
    }

    @DataProvider
    public Object[][] bloomTypes()
    {
        return typeCases().stream().filter(type -> FileIndexHash.supports(type.tarn())).map(type -> new Object[] {type}).toArray(Object[][]::new);
    }

    @DataProvider
    public Object[][] bitmapTypes()
    {
        List<Object[]> cases = new ArrayList<>();
        for (TypeCase type : typeCases()) {
            if (type.tarn().root().isBinaryString()) {
                continue;
            }
            for (int version : new int[] {1, 2}) {
                cases.add(new Object[] {type, version});
            }
        }
        return cases.toArray(Object[][]::new);
    }

    @Test(dataProvider = "bloomTypes")
    public void testBloomFilterBytesEqualPaimons(TypeCase type)
            throws Exception
    {
        FileIndexWriter paimon = FileIndexer.create("bloom-filter", type.paimon(), new Options(Map.of("items", "150", "fpp", "0.03"))).createWriter();
        BloomFilterIndex.Writer tarn = new BloomFilterIndex.Writer(type.tarn(), 150, 0.03);
        for (int i = 0; i < 100; i++) {
            Object value = i % 17 == 0 ? null : type.values().apply(i);
            paimon.writeRecord(value == null ? null : type.toPaimon().apply(value));
            tarn.add(value);
        }
        byte[] bytes = tarn.serialize();
        assertThat(bytes).isEqualTo(paimon.serializedBytes());

        // what Tarn's reader says about values in and out of the filter is what Paimon's says
        BloomFilterIndex reader = BloomFilterIndex.read(type.tarn(), ByteBuffer.wrap(bytes));
        FileIndexReader paimonReader = FileIndexer.create("bloom-filter", type.paimon(), new Options()).createReader(new ByteArraySeekableStream(bytes), 0, bytes.length);
        int absentSkipped = 0;
        for (int i = 0; i < 300; i++) {
            Object value = type.values().apply(i);
            boolean paimonKeeps = paimonReader.visitEqual(new FieldRef(0, "c", type.paimon()), type.toPaimon().apply(value)).remain();
            assertThat(reader.mightContain(value)).as("value %s", value).isEqualTo(paimonKeeps);
            if (i < 100 && i % 17 != 0) {
                assertThat(reader.mightContain(value)).isTrue();
            }
            else if (!reader.mightContain(value)) {
                absentSkipped++;
            }
        }
        if (!type.name().equals("tinyint") && !type.name().equals("boolean")) {
            assertThat(absentSkipped).as("absent values the filter rules out").isGreaterThan(0);
        }
    }

    @Test
    public void testStringHashIsXxh64OfUtf8()
    {
        Random random = new Random(5);
        for (int length = 0; length < 100; length++) {
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            assertThat(FileIndexHash.hash(DataTypes.bytes(), bytes)).as("length %s", length).isEqualTo(LongHashFunction.xx().hashBytes(bytes));
        }
        // reference vectors of XXH64 with seed 0
        assertThat(FileIndexHash.hash(DataTypes.string(), "")).isEqualTo(0xEF46DB3751D8E999L);
        assertThat(FileIndexHash.hash(DataTypes.string(), "abc")).isEqualTo(0x44BC2CF5AD770999L);
    }

    @Test(dataProvider = "bitmapTypes")
    public void testBitmapIndexesReadAcross(TypeCase type, int version)
            throws Exception
    {
        // values repeat (bitmaps), occur once (single-row offsets) and are null (a null bitmap)
        List<Object> rows = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            rows.add(i % 13 == 0 ? null : type.values().apply(i < 300 ? i % 23 : i));
        }
        checkBitmapAcross(type, version, rows);
        // no nulls; a single null
        List<Object> singleNull = new ArrayList<>(rows.stream().map(value -> value == null ? type.values().apply(1) : value).toList());
        checkBitmapAcross(type, version, singleNull);
        singleNull.set(57, null);
        checkBitmapAcross(type, version, singleNull);
    }

    private static void checkBitmapAcross(TypeCase type, int version, List<Object> rows)
            throws Exception
    {
        // a small block size cuts version 2 into many index blocks
        Options options = new Options(Map.of("version", Integer.toString(version), "index-block-size", "128b"));
        FileIndexWriter paimonWriter = FileIndexer.create("bitmap", type.paimon(), options).createWriter();
        BitmapIndex.Writer tarnWriter = new BitmapIndex.Writer(type.tarn(), version, 128);
        for (Object value : rows) {
            paimonWriter.writeRecord(value == null ? null : type.toPaimon().apply(value));
            tarnWriter.add(value);
        }
        byte[] paimonBytes = paimonWriter.serializedBytes();
        byte[] tarnBytes = tarnWriter.serialize();

        Map<Object, RoaringBitmap> expected = expectedRows(type, rows);
        BitmapIndex tarnReadsPaimon = BitmapIndex.read(type.tarn(), ByteBuffer.wrap(paimonBytes));
        assertThat(tarnReadsPaimon.version()).isEqualTo(version);
        assertThat(tarnReadsPaimon.rowCount()).isEqualTo(rows.size());
        FileIndexReader paimonReadsTarn = FileIndexer.create("bitmap", type.paimon(), new Options()).createReader(new ByteArraySeekableStream(tarnBytes), 0, tarnBytes.length);
        FieldRef field = new FieldRef(0, "c", type.paimon());
        for (Map.Entry<Object, RoaringBitmap> entry : expected.entrySet()) {
            Object value = entry.getKey() instanceof Key key ? key.value() : entry.getKey();
            RoaringBitmap expectedRows = entry.getValue();
            if (value == null) {
                assertThat(tarnReadsPaimon.nullRows()).as("null rows").isEqualTo(expectedRows);
                assertThat(rows(paimonReadsTarn.visitIsNull(field))).as("null rows").isEqualTo(expectedRows);
            }
            else {
                assertThat(tarnReadsPaimon.rows(value)).as("rows of %s", value).isEqualTo(expectedRows);
                assertThat(rows(paimonReadsTarn.visitEqual(field, type.toPaimon().apply(value)))).as("rows of %s", value).isEqualTo(expectedRows);
            }
        }
        // absent values
        for (int i = 1000; i < 1010; i++) {
            Object value = type.values().apply(i);
            if (!expected.containsKey(key(value))) {
                assertThat(tarnReadsPaimon.rows(value).isEmpty()).isTrue();
                assertThat(rows(paimonReadsTarn.visitEqual(field, type.toPaimon().apply(value))).isEmpty()).isTrue();
            }
        }
    }

    @Test
    public void testContainersReadAcross()
            throws Exception
    {
        byte[] bloom = new BloomFilterIndex.Writer(DataTypes.integer(), 10, 0.1).serialize();
        byte[] bitmap = new BitmapIndex.Writer(DataTypes.integer(), 2, 16384).serialize();
        Map<String, Map<String, byte[]>> indexes = new LinkedHashMap<>();
        indexes.put("id", new LinkedHashMap<>(Map.of("bloom-filter", bloom)));
        indexes.put("m[k]", new LinkedHashMap<>(Map.of("bitmap", bitmap)));
        Map<String, byte[]> two = new LinkedHashMap<>();
        two.put("bloom-filter", bloom);
        two.put("bsi", new byte[] {1, 2, 3});
        indexes.put("ünïcode", two);

        // one column with one index has a single byte order
        ByteArrayOutputStream paimonSingle = new ByteArrayOutputStream();
        try (FileIndexFormat.Writer writer = new FileIndexFormat.Writer(paimonSingle)) {
            writer.writeColumnIndexes(Map.of("id", Map.of("bloom-filter", bloom)));
        }
        assertThat(FileIndexFile.serialize(Map.of("id", Map.of("bloom-filter", bloom)))).isEqualTo(paimonSingle.toByteArray());

        byte[] tarnBytes = FileIndexFile.serialize(indexes);
        RowType rowType = RowType.of(
                new org.apache.paimon.types.DataType[] {org.apache.paimon.types.DataTypes.INT(), org.apache.paimon.types.DataTypes.MAP(
                        org.apache.paimon.types.DataTypes.STRING(), org.apache.paimon.types.DataTypes.INT()), org.apache.paimon.types.DataTypes.INT()},
                new String[] {"id", "m", "ünïcode"});
        try (FileIndexFormat.Reader reader = new FileIndexFormat.Reader(new ByteArraySeekableStream(tarnBytes), rowType)) {
            Map<String, Map<String, byte[]>> read = reader.readAll();
            assertThat(read.keySet()).containsExactlyInAnyOrder("id", "m[k]", "ünïcode");
            assertThat(read.get("ünïcode").get("bsi")).isEqualTo(new byte[] {1, 2, 3});
            assertThat(read.get("m[k]").get("bitmap")).isEqualTo(bitmap);
        }

        ByteArrayOutputStream paimonBytes = new ByteArrayOutputStream();
        try (FileIndexFormat.Writer writer = new FileIndexFormat.Writer(paimonBytes)) {
            Map<String, Map<String, byte[]>> withEmpty = new HashMap<>(indexes);
            Map<String, byte[]> empty = new HashMap<>();
            empty.put("bitmap", null);
            withEmpty.put("m[absent]", empty);
            writer.writeColumnIndexes(withEmpty);
        }
        FileIndexFile file = FileIndexFile.parse(paimonBytes.toByteArray());
        assertThat(file.columns()).containsExactlyInAnyOrder("id", "m[k]", "ünïcode", "m[absent]");
        assertThat(file.indexes("m[absent]")).singleElement().satisfies(index -> assertThat(index.empty()).isTrue());
        for (String column : indexes.keySet()) {
            for (FileIndexFile.Index index : file.indexes(column)) {
                ByteBuffer payload = file.payload(index);
                byte[] bytes = new byte[payload.remaining()];
                payload.get(bytes);
                assertThat(bytes).as("%s %s", column, index.type()).isEqualTo(indexes.get(column).get(index.type()));
            }
        }
    }

    @Test
    public void testCorruptContainersAreRefused()
    {
        byte[] good = FileIndexFile.serialize(Map.of("id", Map.of("bloom-filter", new BloomFilterIndex.Writer(DataTypes.integer(), 10, 0.1).serialize())));
        byte[] badMagic = good.clone();
        badMagic[0] ^= 1;
        assertThatThrownBy(() -> FileIndexFile.parse(badMagic)).isInstanceOf(CorruptIndexException.class).hasMessageContaining("magic");
        byte[] truncated = Arrays.copyOf(good, 30);
        assertThatThrownBy(() -> FileIndexFile.parse(truncated)).isInstanceOf(CorruptIndexException.class);
        byte[] pastEnd = Arrays.copyOf(good, good.length - 1);
        assertThatThrownBy(() -> FileIndexFile.parse(pastEnd)).isInstanceOf(CorruptIndexException.class).hasMessageContaining("outside");
        assertThatThrownBy(() -> FileIndexFile.parse(new byte[0])).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    public void testTruncatedBitmapIsRefused()
            throws Exception
    {
        BitmapIndex.Writer writer = new BitmapIndex.Writer(DataTypes.integer(), 2, 16384);
        for (int i = 0; i < 1000; i++) {
            writer.add(i % 3);
        }
        byte[] bytes = writer.serialize();
        BitmapIndex truncated = BitmapIndex.read(DataTypes.integer(), ByteBuffer.wrap(Arrays.copyOf(bytes, bytes.length - 5)));
        assertThatThrownBy(() -> truncated.rows(2)).isInstanceOf(CorruptIndexException.class);
        assertThatThrownBy(() -> BitmapIndex.read(DataTypes.integer(), ByteBuffer.wrap(Arrays.copyOf(bytes, 12)))).isInstanceOf(CorruptIndexException.class);
    }

    private static RoaringBitmap rows(FileIndexResult result)
    {
        RoaringBitmap rows = new RoaringBitmap();
        ((BitmapIndexResult) result).get().iterator().forEachRemaining(rows::add);
        return rows;
    }

    /**
     * Value → rows, computed from the input; byte arrays and strings keyed by content.
     */
    private static Map<Object, RoaringBitmap> expectedRows(TypeCase type, List<Object> rows)
    {
        Map<Object, RoaringBitmap> expected = new LinkedHashMap<>();
        for (int row = 0; row < rows.size(); row++) {
            Object value = rows.get(row);
            expected.computeIfAbsent(value == null ? null : key(value), ignored -> new RoaringBitmap()).add(row);
        }
        return expected;
    }

    private static Object key(Object value)
    {
        return value instanceof byte[] bytes ? new Key(bytes, Arrays.hashCode(bytes)) : value;
    }

    private record Key(Object value, int hash)
    {
        @Override
        public boolean equals(Object other)
        {
            return other instanceof Key that && Arrays.equals((byte[]) value, (byte[]) that.value);
        }

        @Override
        public int hashCode()
        {
            return hash;
        }
    }

}
