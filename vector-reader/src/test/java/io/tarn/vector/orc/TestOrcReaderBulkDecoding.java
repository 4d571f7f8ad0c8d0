package io.tarn.vector.orc;

import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.TypeRoot;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ReadOptions;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.shade.org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.paimon.shade.org.apache.orc.CompressionKind;
import org.apache.paimon.shade.org.apache.orc.OrcFile;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bulk paths of the reader (runs unpacked from the decompressed chunk or decoded in place,
 * validity written a byte at a time, one DATA read per piece of strings, dictionary entries copied
 * a word at a time, or as one word where every entry fits one) on files of ORC's own writer with lineitem-like columns: sorted and random
 * BIGINTs, INTs and DATEs, DECIMAL(15,2), dictionary and direct strings; nulls in some columns,
 * in some stripes only (so that stripes with and without a PRESENT stream alternate), and none in
 * others; compression chunks of 1 KB, so that runs straddle them. Read whole in batches of many
 * sizes and through row selections (seeks into the middle of runs and chunks); the expected
 * values are the ones written.
 */
public class TestOrcReaderBulkDecoding
{
    private static final int ROWS = 30_000;
    private static final AtomicType BIGINT = new AtomicType(TypeRoot.BIGINT, 0, 0, true);
    private static final AtomicType INT = new AtomicType(TypeRoot.INT, 0, 0, true);
    private static final AtomicType DATE = new AtomicType(TypeRoot.DATE, 0, 0, true);
    private static final AtomicType DECIMAL = new AtomicType(TypeRoot.DECIMAL, 15, 2, true);
    private static final AtomicType STRING = new AtomicType(TypeRoot.VARCHAR, Integer.MAX_VALUE, 0, true);
    private static final List<DataField> FIELDS = List.of(
            new DataField(0, "orderkey", BIGINT),
            new DataField(1, "partkey", BIGINT),
            new DataField(2, "suppkey", INT),
            new DataField(3, "shipdate", DATE),
            new DataField(4, "price", DECIMAL),
            new DataField(5, "flag", STRING),
            new DataField(6, "comment", STRING),
            new DataField(7, "wide", BIGINT),
            new DataField(8, "mode", STRING));
    private static final String SCHEMA = "struct<orderkey:bigint,partkey:bigint,suppkey:int,shipdate:date,price:decimal(15,2),flag:string,comment:string,wide:bigint,mode:string>";
    // dictionary entries of at most 8 bytes, one of them empty
    private static final String[] MODES = {"AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB", "REG AIR", "", "8 BYTES!"};
    private static final String[] FLAGS = {"A", "N", "R", "MAIL", "TRUCK", "DELIVER IN PERSON", "a flag longer than a word of eight bytes"};

    private final RootAllocator allocator = new RootAllocator();
    private final long seed = System.nanoTime();
    private final Object[][] rows = new Object[ROWS][];
    private final byte[] file;

    public TestOrcReaderBulkDecoding()
            throws IOException
    {
        System.out.println("TestOrcReaderBulkDecoding seed " + seed);
        Random random = new Random(seed);
        for (int row = 0; row < ROWS; row++) {
            // nulls in suppkey only in the first stripe's rows, in price and comment everywhere, never in the keys
            boolean firstStripe = row < 10_000;
            rows[row] = new Object[] {
                    (long) row * 4 + random.nextInt(4),
                    random.nextInt(10) == 0 ? random.nextLong() : (long) random.nextInt(200_000),
                    firstStripe && random.nextInt(30) == 0 ? null : random.nextInt(10_000),
                    random.nextInt(2526) + 8035,
                    random.nextInt(50) == 0 ? null : BigDecimal.valueOf(random.nextInt(10_000_000) - 100_000, random.nextInt(3)).setScale(2),
                    random.nextInt(40) == 0 ? null : FLAGS[random.nextInt(FLAGS.length)],
                    random.nextInt(50) == 0 ? null : comment(random),
                    random.nextLong() >> random.nextInt(64),
                    random.nextInt(50) == 0 ? null : MODES[random.nextInt(MODES.length)]};
        }
        file = write();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @DataProvider
    public Object[][] batchSizes()
    {
        return new Object[][] {{1}, {7}, {511}, {512}, {513}, {1000}, {4096}, {ROWS}};
    }

    @Test(dataProvider = "batchSizes")
    public void testWholeFile(int batchSize)
            throws IOException
    {
        List<Integer> all = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            all.add(row);
        }
        assertThat(read(ReadOptions.of(FIELDS).withBatchSize(batchSize))).as("seed " + seed).isEqualTo(expected(all));
    }

    @Test
    public void testRowSelections()
            throws IOException
    {
        Random random = new Random(seed);
        for (int round = 0; round < 6; round++) {
            RoaringBitmap selection = new RoaringBitmap();
            List<Integer> selected = new ArrayList<>();
            int percent = round < 3 ? 1 : 20;
            for (int row = 0; row < ROWS; row++) {
                if (random.nextInt(100) < percent || round == 5 && row % 1000 > 990) {
                    selection.add(row);
                    selected.add(row);
                }
            }
            int batchSize = round % 2 == 0 ? 4096 : 1 + random.nextInt(600);
            assertThat(read(ReadOptions.of(FIELDS).withBatchSize(batchSize).withRowSelection(selection)))
                    .as("seed " + seed + " round " + round)
                    .isEqualTo(expected(selected));
        }
    }

    private List<List<Object>> expected(List<Integer> selected)
    {
        List<List<Object>> expected = new ArrayList<>();
        for (int row : selected) {
            expected.add(Arrays.asList(rows[row]));
        }
        return expected;
    }

    private List<List<Object>> read(ReadOptions options)
            throws IOException
    {
        List<List<Object>> actual = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("bulk.orc", file), options, FIELDS, allocator)) {
            while (reader.nextBatch()) {
                VectorSchemaRoot root = reader.root();
                BigIntVector orderkey = (BigIntVector) root.getVector(0);
                BigIntVector partkey = (BigIntVector) root.getVector(1);
                IntVector suppkey = (IntVector) root.getVector(2);
                DateDayVector shipdate = (DateDayVector) root.getVector(3);
                DecimalVector price = (DecimalVector) root.getVector(4);
                VarCharVector flag = (VarCharVector) root.getVector(5);
                VarCharVector comment = (VarCharVector) root.getVector(6);
                BigIntVector wide = (BigIntVector) root.getVector(7);
                VarCharVector mode = (VarCharVector) root.getVector(8);
                for (int i = 0; i < root.getRowCount(); i++) {
                    actual.add(Arrays.asList(
                            orderkey.getObject(i),
                            partkey.getObject(i),
                            suppkey.getObject(i),
                            shipdate.getObject(i),
                            price.getObject(i),
                            flag.isNull(i) ? null : new String(flag.get(i), StandardCharsets.UTF_8),
                            comment.isNull(i) ? null : new String(comment.get(i), StandardCharsets.UTF_8),
                            wide.getObject(i),
                            mode.isNull(i) ? null : new String(mode.get(i), StandardCharsets.UTF_8)));
                }
                // the validity agrees with the null count Arrow derives from it
                long nulls = 0;
                for (int i = 0; i < root.getRowCount(); i++) {
                    nulls += price.isNull(i) ? 1 : 0;
                }
                assertThat(price.getNullCount()).isEqualTo((int) nulls);
            }
        }
        return actual;
    }

    private static String comment(Random random)
    {
        char[] characters = new char[10 + random.nextInt(31)];
        for (int i = 0; i < characters.length; i++) {
            characters[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(characters);
    }

    private byte[] write()
            throws IOException
    {
        UnaryOperator<OrcFile.WriterOptions> options = defaults -> defaults
                .compress(CompressionKind.ZSTD)
                .bufferSize(1024)
                .rowIndexStride(1000)
                .stripeSize(64 * 1024)
                .blockPadding(false);
        return OrcCoreFiles.write(SCHEMA, options, (writer, type) -> {
            VectorizedRowBatch batch = type.createRowBatch();
            for (int row = 0; row < ROWS; row++) {
                int slot = batch.size++;
                Object[] values = rows[row];
                for (int column = 0; column < values.length; column++) {
                    ColumnVector vector = batch.cols[column];
                    Object value = values[column];
                    if (value == null) {
                        vector.noNulls = false;
                        vector.isNull[slot] = true;
                        continue;
                    }
                    vector.isNull[slot] = false;
                    if (value instanceof Long number) {
                        ((LongColumnVector) vector).vector[slot] = number;
                    }
                    else if (value instanceof Integer number) {
                        ((LongColumnVector) vector).vector[slot] = number;
                    }
                    else if (value instanceof BigDecimal decimal) {
                        ((DecimalColumnVector) vector).set(slot, HiveDecimal.create(decimal));
                    }
                    else if (value instanceof String text) {
                        ((BytesColumnVector) vector).setVal(slot, text.getBytes(StandardCharsets.UTF_8));
                    }
                    else {
                        throw new IllegalArgumentException(Objects.toString(value));
                    }
                }
                if (batch.size == batch.getMaxSize() || row == 9_999 || row == ROWS - 1) {
                    writer.addRowBatch(batch);
                    batch.reset();
                    if (row == 9_999) {
                        // the stripe with nulls in suppkey ends here: the next ones have no PRESENT stream for it
                        writer.writeIntermediateFooter();
                    }
                }
            }
        });
    }
}
