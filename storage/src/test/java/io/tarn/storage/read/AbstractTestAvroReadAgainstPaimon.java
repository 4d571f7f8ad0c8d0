package io.tarn.storage.read;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.FilterSpec;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTables;
import io.tarn.types.DataField;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.BinaryType;
import org.apache.paimon.types.CharType;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;
import org.apache.paimon.types.VarBinaryType;
import org.apache.paimon.types.VarCharType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables whose data files Apache Paimon 1.3.1 wrote in Avro, read by Tarn with exactly the
 * canonical rows Paimon's own reader returns, at every snapshot, by projections and under
 * filters; the subclasses write the tables.
 * <p>
 * Paimon's Avro reader returns map entries in the order of a {@link HashMap} it fills from the
 * file, Tarn in the file's order: the maps written here are {@link HashMap}s of few entries, whose
 * order Paimon's writer keeps and its reader rebuilds, so that both orders agree.
 */
public abstract class AbstractTestAvroReadAgainstPaimon
{
    protected static final String DATABASE = "db";

    protected PaimonTables paimon;
    protected Path warehouse;
    protected FileSystemCatalog catalog;
    protected RootAllocator allocator;

    /**
     * Writes the tables of {@code tables()} into {@link #paimon}.
     */
    protected abstract void createTables()
            throws Exception;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        paimon = new PaimonTables();
        warehouse = Path.of(paimon.warehouse());
        allocator = new RootAllocator();
        createTables();
        catalog = new FileSystemCatalog(new LocalFileIO(), paimon.warehouse());
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        if (paimon != null) {
            paimon.close();
        }
    }

    @Test(dataProvider = "tables")
    public void testEveryVersionReadsLikePaimon(String table)
            throws IOException
    {
        ReferenceScan latest = ReferenceScan.of(DATABASE + "." + table);
        List<ReferenceScan> scans = new ArrayList<>();
        scans.add(latest);
        for (ReferenceSnapshot snapshot : ReferenceTables.snapshots(warehouse, latest.table())) {
            scans.add(latest.atSnapshot(snapshot.id()));
        }
        for (ReferenceScan scan : scans) {
            String expected = ReferenceReader.read(warehouse, scan).text();
            assertThat(tarnRows(scan, Optional.empty(), Optional.empty()))
                    .as("%s at %s", table, scan.version())
                    .isEqualTo(expected);
        }
    }

    @Test(dataProvider = "tables")
    public void testTheFilesReadAreAvro(String table)
            throws IOException
    {
        PaimonTable loaded = PaimonTable.load(catalog, Identifier.parse(DATABASE + "." + table));
        boolean avro = false;
        for (ReferenceSnapshot snapshot : ReferenceTables.snapshots(warehouse, DATABASE + "." + table)) {
            for (PlannedFile file : new ScanPlanner(loaded).plan(loaded.snapshot(new ScanVersion.SnapshotId(snapshot.id()))).files()) {
                avro |= file.file().fileName().endsWith(".avro");
                if (table.contains("levels")) {
                    // file.format.per.level '0:avro': level 0 in Avro, the others in Parquet
                    assertThat(file.file().fileName()).endsWith(file.file().level() == 0 ? ".avro" : ".parquet");
                }
            }
        }
        assertThat(avro).as("%s reads Avro data files", table).isTrue();
    }

    /**
     * Projections (which skip the other fields of every record) compared with the same columns
     * of the rows Paimon reads.
     */
    @Test(dataProvider = "projections")
    public void testProjectionsReadLikePaimon(String table, List<String> columns)
            throws IOException
    {
        ReferenceScan scan = ReferenceScan.of(DATABASE + "." + table);
        RowType rowType = ReferenceReader.rowType(warehouse, scan);
        int[] indexes = columns.stream().mapToInt(rowType::getFieldIndex).toArray();
        List<String> expected = new ArrayList<>();
        for (String line : ReferenceReader.read(warehouse, scan).lines()) {
            // canonical values escape TAB: the columns split apart
            String[] values = line.split("\t", -1);
            List<String> picked = new ArrayList<>();
            for (int index : indexes) {
                picked.add(values[index]);
            }
            expected.add(String.join("\t", picked));
        }
        assertThat(tarnRows(scan, Optional.of(columns), Optional.empty()))
                .as("%s columns %s", table, columns)
                .isEqualTo(CanonicalRowSet.of(expected).text());
    }

    @Test(dataProvider = "filters")
    public void testFilteredReadsLikePaimon(String table, FilterSpec filter)
            throws IOException
    {
        ReferenceScan unfiltered = ReferenceScan.of(DATABASE + "." + table);
        ReferenceScan scan = unfiltered.withFilter(filter.paimon(ReferenceReader.rowType(warehouse, unfiltered)));
        assertThat(tarnRows(unfiltered, Optional.empty(), Optional.of(filter)))
                .as("%s WHERE %s", table, filter)
                .isEqualTo(ReferenceReader.read(warehouse, scan).text());
    }

    protected String tarnRows(ReferenceScan scan, Optional<List<String>> columns, Optional<FilterSpec> filter)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(scan.table()));
        ScanPlanner planner = new ScanPlanner(table);
        if (filter.isPresent()) {
            planner = planner.withFilter(filter.get().tarn(table.schema()));
        }
        ScanPlan plan = planner.plan(table.snapshot(switch (scan.version().kind()) {
            case SNAPSHOT -> new ScanVersion.SnapshotId(scan.version().snapshotId());
            default -> new ScanVersion.Latest();
        }));
        List<DataField> fields = plan.readSchema().fields();
        if (columns.isPresent()) {
            fields = columns.get().stream()
                    .map(name -> plan.readSchema().rowType().field(name).orElseThrow())
                    .toList();
        }
        ReadRequest request = ReadRequest.of(fields).withBatchSize(13);
        if (filter.isPresent()) {
            request = request.withFilter(filter.get().tarn(table.schema()));
        }
        ReadRequest finalRequest = request;
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, finalRequest, allocator, batch -> CanonicalRowFormatter.appendLines(batch, finalRequest.columns(), lines));
        return CanonicalRowSet.of(lines).text();
    }

    /**
     * A random value of {@code type}: nulls where the type allows (one in six), dates and
     * timestamps before 1970 too, timestamps with exactly the digits their precision keeps.
     */
    protected static Object value(DataType type, Random random)
    {
        if (type.isNullable() && random.nextInt(6) == 0) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> random.nextBoolean();
            case TINYINT -> (byte) random.nextInt();
            case SMALLINT -> (short) random.nextInt();
            case INTEGER -> random.nextInt(3) == 0 ? random.nextInt() : random.nextInt(100) - 20;
            case BIGINT -> random.nextInt(3) == 0 ? random.nextLong() : (long) random.nextInt(100);
            case FLOAT -> random.nextInt(10) == 0 ? Float.NaN : (float) (random.nextGaussian() * 1000);
            case DOUBLE -> random.nextInt(10) == 0 ? -0.0 : random.nextGaussian() * 1e6;
            case DECIMAL -> {
                DecimalType decimal = (DecimalType) type;
                BigInteger unscaled = new BigInteger(decimal.getPrecision() * 3, random);
                while (unscaled.toString().length() > decimal.getPrecision()) {
                    unscaled = unscaled.shiftRight(1);
                }
                yield Decimal.fromBigDecimal(new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), decimal.getScale()), decimal.getPrecision(), decimal.getScale());
            }
            case CHAR -> BinaryString.fromString(text(random, ((CharType) type).getLength()));
            case VARCHAR -> BinaryString.fromString(text(random, Math.min(16, ((VarCharType) type).getLength())));
            case BINARY -> bytes(random, ((BinaryType) type).getLength());
            case VARBINARY -> bytes(random, random.nextInt(Math.min(12, ((VarBinaryType) type).getLength()) + 1));
            case DATE -> random.nextInt(80_000) - 40_000;
            case TIME_WITHOUT_TIME_ZONE -> random.nextInt(86_400_000);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(random, ((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(random, ((LocalZonedTimestampType) type).getPrecision());
            case ARRAY -> {
                Object[] elements = new Object[random.nextInt(4)];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = value(((ArrayType) type).getElementType(), random);
                }
                yield new GenericArray(elements);
            }
            case MAP -> map(((MapType) type).getKeyType(), ((MapType) type).getValueType(), random, false);
            case MULTISET -> map(((MultisetType) type).getElementType(), DataTypes.INT().notNull(), random, true);
            case ROW -> {
                RowType row = (RowType) type;
                GenericRow nested = new GenericRow(row.getFieldCount());
                for (int i = 0; i < row.getFieldCount(); i++) {
                    nested.setField(i, value(row.getTypeAt(i), random));
                }
                yield nested;
            }
            default -> throw new IllegalArgumentException("Unsupported " + type);
        };
    }

    private static GenericMap map(DataType key, DataType value, Random random, boolean counts)
    {
        // a HashMap, whose order Paimon's Avro reader rebuilds (see the class comment)
        Map<Object, Object> entries = new HashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            entries.put(value(key, random), counts ? 1 + random.nextInt(3) : value(value, random));
        }
        return new GenericMap(entries);
    }

    private static String text(Random random, int maxLength)
    {
        int kind = random.nextInt(4);
        if (kind == 0) {
            return "";
        }
        if (kind == 1) {
            return "v" + random.nextInt(5);
        }
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(maxLength + 1);
        for (int i = 0; i < length; i++) {
            int pick = random.nextInt(30);
            text.append(pick == 0 ? '\t' : pick == 1 ? 'é' : pick == 2 ? '"' : pick == 3 ? '日' : (char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    private static byte[] bytes(Random random, int length)
    {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static Timestamp timestamp(Random random, int precision)
    {
        long millis = random.nextLong() % 4_000_000_000_000L;
        int nanos = 0;
        if (precision > 3) {
            nanos = random.nextInt(1_000_000) / 1000 * 1000;
        }
        return Timestamp.fromEpochMillis(millis, nanos);
    }
}
