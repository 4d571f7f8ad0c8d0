package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.AppendTableWriter;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;
import shaded.parquet.org.apache.thrift.TException;
import shaded.parquet.org.apache.thrift.protocol.TCompactProtocol;
import shaded.parquet.org.apache.thrift.protocol.TField;
import shaded.parquet.org.apache.thrift.protocol.TList;
import shaded.parquet.org.apache.thrift.protocol.TStruct;
import shaded.parquet.org.apache.thrift.transport.TIOStreamTransport;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Single-byte corruptions of a data file's Parquet footer (the thrift FileMetaData between the
 * last column chunk and the length and magic) never turn into a silently different answer: a
 * table read through the normal read path either returns exactly the rows Apache Paimon's reader
 * returns for the unmodified table, or fails with {@link CorruptFileException} naming the file.
 * Every byte of the footer, the schema section as well as the row-group metadata and statistics,
 * is flipped with each of several masks (a low bit, a middle bit, a high bit of a varint and all
 * bits), about 24,000 reads in all.
 */
public class TestFooterMutations
{
    private static final String TWO_COLUMNS = "ref.two_columns";
    private static final String TWO_COLUMNS_TARN = "ref.two_columns_tarn";
    private static final int TWO_COLUMN_ROWS = 1000;
    private static final int[] MASKS = {0x01, 0x02, 0x10, 0x80, 0xFF};
    private static final long READ_TIMEOUT_SECONDS = 30;

    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;
    private ExecutorService executor;

    @BeforeClass
    public void createTables()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-footer-mutations");
        allocator = new RootAllocator();
        executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "footer-mutation-read");
            thread.setDaemon(true);
            return thread;
        });
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_ALL_TYPES);
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_NESTED);
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_EVOLVED);
        ReferenceTables.create(warehouse, ReferenceTables.PK_DV);
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        createTwoColumnTables();
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
            throws IOException
    {
        if (executor != null) {
            executor.shutdownNow();
        }
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    /**
     * A two-column table written by Paimon, and its copy written by Tarn (the case).
     */
    private void createTwoColumnTables()
            throws Exception
    {
        Options options = new Options();
        options.set("warehouse", warehouse.toString());
        try (Catalog paimon = CatalogFactory.createCatalog(CatalogContext.create(options, new org.apache.hadoop.conf.Configuration()))) {
            org.apache.paimon.catalog.Identifier identifier = org.apache.paimon.catalog.Identifier.fromString(TWO_COLUMNS);
            paimon.createTable(identifier, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("name", DataTypes.STRING())
                    .build(), false);
            FileStoreTable table = (FileStoreTable) paimon.getTable(identifier);
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (int id = 0; id < TWO_COLUMN_ROWS; id++) {
                    write.write(GenericRow.of(id, BinaryString.fromString("name-" + id)));
                }
                commit.commit(write.prepareCommit());
            }
        }
        PaimonTable source = table(TWO_COLUMNS);
        TableSchema schema = source.schema();
        catalog.createTable(Identifier.parse(TWO_COLUMNS_TARN), new TableSchema(schema.version(), 0, schema.fields(), schema.highestFieldId(),
                schema.partitionKeys(), schema.primaryKeys(), schema.options(), schema.comment(), schema.timeMillis()));
        PaimonTable copy = table(TWO_COLUMNS_TARN);
        ScanPlan plan = new ScanPlanner(source).plan(source.snapshot(new ScanVersion.Latest()));
        try (AppendTableWriter writer = new AppendTableWriter(copy, allocator)) {
            TableRead.forEachBatch(source, plan, ReadRequest.of(plan.readSchema().fields()), allocator, writer::write);
            new TableCommit(copy, "footer-mutation-test").commit(writer.prepareCommit(), CommitKind.APPEND, 1);
        }
    }

    @DataProvider
    public Object[][] tables()
    {
        return new Object[][] {
                {ReferenceTables.APPEND_ALL_TYPES.identifier()},
                {ReferenceTables.APPEND_NESTED.identifier()},
                {ReferenceTables.APPEND_EVOLVED.identifier()},
                {ReferenceTables.PK_DV.identifier()},
                {TWO_COLUMNS},
                {TWO_COLUMNS_TARN},
        };
    }

    @Test(dataProvider = "tables")
    public void testFooterByteFlipsFailOrReadLikePaimon(String tableName)
            throws Exception
    {
        PaimonTable table = table(tableName);
        ScanPlan plan = plan(table);
        String expected = ReferenceReader.read(warehouse, tableName).text();
        assertThat(read(table, plan)).as("unmodified %s", tableName).isEqualTo(expected);

        Path file = firstDataFile(table, plan);
        Footer footer = Footer.of(Files.readAllBytes(file));
        System.out.printf("%s: %s, footer at %d, %d bytes, schema section %d bytes%n",
                tableName, file.getFileName(), footer.start(), footer.length(), footer.schemaLength());

        List<String> failures = new ArrayList<>();
        int reads = 0;
        int corrupt = 0;
        try (RandomAccessFile access = new RandomAccessFile(file.toFile(), "rw")) {
            for (int offset = 0; offset < footer.length(); offset++) {
                long position = footer.start() + offset;
                byte original = footer.bytes()[offset];
                for (int mask : MASKS) {
                    access.seek(position);
                    access.writeByte(original ^ mask);
                    try {
                        reads++;
                        Outcome outcome = mutatedRead(table, plan, file, expected);
                        if (outcome == Outcome.CORRUPT) {
                            corrupt++;
                        }
                    }
                    catch (AssertionError e) {
                        failures.add(String.format("footer byte %d (file byte %d) ^ 0x%02X, %s: %s", offset, position, mask, footer.describeFlip(offset, mask), e.getMessage()));
                    }
                    finally {
                        access.seek(position);
                        access.writeByte(original);
                    }
                }
            }
        }
        System.out.printf("%s: %d mutated reads, %d failed as corrupt, %d wrong%n", tableName, reads, corrupt, failures.size());
        assertThat(failures).as("footer mutations of %s read wrongly", file).isEmpty();
        // the file is restored
        assertThat(read(table, plan)).isEqualTo(expected);
    }

    /**
     * The example: the field id of column {@code id} in the footer of a Tarn-written
     * two-column table changes, and the column read as all NULL instead of failing.
     */
    @Test
    public void testChangedFieldIdIsCorruptionNotNulls()
            throws Exception
    {
        PaimonTable table = table(TWO_COLUMNS_TARN);
        ScanPlan plan = plan(table);
        Path file = firstDataFile(table, plan);
        byte[] bytes = Files.readAllBytes(file);
        Footer footer = Footer.of(bytes);
        int idFieldId = table.schema().fields().get(0).id();
        int offset = footer.start() + footer.fieldIdOffset("id", idFieldId);
        try {
            bytes[offset] ^= 0x01;
            Files.write(file, bytes);
            assertThatThrownBy(() -> read(table, plan))
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessageContaining(file.getFileName().toString())
                    .hasMessageContaining("field id " + idFieldId);
        }
        finally {
            bytes[offset] ^= 0x01;
            Files.write(file, bytes);
        }
        assertThat(read(table, plan)).isEqualTo(ReferenceReader.read(warehouse, TWO_COLUMNS_TARN).text());
    }

    private enum Outcome
    {
        SAME_ROWS,
        CORRUPT,
    }

    private Outcome mutatedRead(PaimonTable table, ScanPlan plan, Path file, String expected)
            throws InterruptedException
    {
        Future<String> rows = executor.submit(() -> read(table, plan));
        String actual;
        try {
            actual = rows.get(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (TimeoutException e) {
            rows.cancel(true);
            throw new AssertionError("The read did not end within " + READ_TIMEOUT_SECONDS + " s", e);
        }
        catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CorruptFileException && cause.getMessage() != null && cause.getMessage().contains(file.getFileName().toString())) {
                return Outcome.CORRUPT;
            }
            throw new AssertionError("The read failed with " + cause, cause);
        }
        if (!actual.equals(expected)) {
            throw new AssertionError("The read returned other rows: " + firstDifference(expected, actual));
        }
        return Outcome.SAME_ROWS;
    }

    private static String firstDifference(String expected, String actual)
    {
        String[] expectedLines = expected.split("\n", -1);
        String[] actualLines = actual.split("\n", -1);
        for (int i = 0; i < Math.min(expectedLines.length, actualLines.length); i++) {
            if (!expectedLines[i].equals(actualLines[i])) {
                return "line " + i + " expected [" + expectedLines[i] + "] but was [" + actualLines[i] + "]";
            }
        }
        return expectedLines.length + " lines expected but " + actualLines.length + " read";
    }

    private PaimonTable table(String name)
            throws IOException
    {
        return PaimonTable.load(catalog, Identifier.parse(name));
    }

    private static ScanPlan plan(PaimonTable table)
            throws IOException
    {
        return new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
    }

    private String read(PaimonTable table, ScanPlan plan)
            throws IOException
    {
        ReadRequest request = ReadRequest.of(plan.readSchema().fields());
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, request, allocator, batch -> CanonicalRowFormatter.appendLines(batch, request.columns(), lines));
        return CanonicalRowSet.of(lines).text();
    }

    private static Path firstDataFile(PaimonTable table, ScanPlan plan)
            throws IOException
    {
        PlannedFile file = plan.files().get(0);
        String path = table.dataFilePath(file.partition(), file.bucket(), file.file(), file.file().fileName());
        return Path.of(path.startsWith("file:") ? URI.create(path).getPath() : path);
    }

    /**
     * The serialized FileMetaData of a file and where in it the schema section (the version and
     * the schema element list, the footer's first two fields) ends.
     */
    private record Footer(byte[] bytes, int start, int length, int schemaLength, FileMetaData metadata)
    {
        // thrift's type codes (the shaded thrift keeps no TType)
        private static final byte THRIFT_I32 = 8;
        private static final byte THRIFT_STRUCT = 12;
        private static final byte THRIFT_LIST = 15;

        static Footer of(byte[] file)
                throws IOException, TException
        {
            int length = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
            int start = file.length - 8 - length;
            byte[] bytes = Arrays.copyOfRange(file, start, start + length);
            FileMetaData metadata = Util.readFileMetaData(new ByteArrayInputStream(bytes));
            byte[] prefix = schemaPrefix(metadata.getVersion(), metadata.getSchema());
            assertThat(Arrays.copyOf(bytes, prefix.length)).as("footer starts with its version and schema").isEqualTo(prefix);
            return new Footer(bytes, start, length, prefix.length, metadata);
        }

        /**
         * What a flip changes in the decoded footer: the text around the first difference of the
         * two thrift renderings, to tell which field a wrong read came from.
         */
        String describeFlip(int offset, int mask)
        {
            byte[] flipped = bytes.clone();
            flipped[offset] ^= (byte) mask;
            String original = metadata.toString();
            String changed;
            try {
                changed = Util.readFileMetaData(new ByteArrayInputStream(flipped)).toString();
            }
            catch (IOException e) {
                return "an undecodable footer";
            }
            int first = 0;
            while (first < Math.min(original.length(), changed.length()) && original.charAt(first) == changed.charAt(first)) {
                first++;
            }
            int from = Math.max(0, first - 120);
            return "footer [..." + original.substring(from, Math.min(original.length(), first + 60)) + "...] became [..." + changed.substring(from, Math.min(changed.length(), first + 60)) + "...]";
        }

        /**
         * The footer offset of the field id of the top-level column {@code name}: the first byte
         * in which its element serializes differently with another field id.
         */
        int fieldIdOffset(String name, int fieldId)
                throws TException
        {
            List<SchemaElement> elements = metadata.getSchema();
            for (int i = 0; i < elements.size(); i++) {
                if (name.equals(elements.get(i).getName())) {
                    assertThat(elements.get(i).getField_id()).isEqualTo(fieldId);
                    List<SchemaElement> changed = new ArrayList<>(elements);
                    changed.set(i, elements.get(i).deepCopy().setField_id(fieldId ^ 0x40));
                    byte[] original = schemaPrefix(metadata.getVersion(), elements);
                    byte[] other = schemaPrefix(metadata.getVersion(), changed);
                    return Arrays.mismatch(original, other);
                }
            }
            throw new IllegalArgumentException("No schema element " + name);
        }

        private static byte[] schemaPrefix(int version, List<SchemaElement> elements)
                throws TException
        {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            TCompactProtocol protocol = new TCompactProtocol(new TIOStreamTransport(out));
            protocol.writeStructBegin(new TStruct("FileMetaData"));
            protocol.writeFieldBegin(new TField("version", THRIFT_I32, (short) 1));
            protocol.writeI32(version);
            protocol.writeFieldEnd();
            protocol.writeFieldBegin(new TField("schema", THRIFT_LIST, (short) 2));
            protocol.writeListBegin(new TList(THRIFT_STRUCT, elements.size()));
            for (SchemaElement element : elements) {
                element.write(protocol);
            }
            protocol.writeListEnd();
            protocol.writeFieldEnd();
            protocol.getTransport().flush();
            return out.toByteArray();
        }
    }
}
