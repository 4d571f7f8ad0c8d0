package io.tarn.testing;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.TableWrite;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The entry point of a child JVM whose class path holds one Apache Paimon release (see
 * {@link PaimonProcess}). It is compiled against the oracle's Paimon but calls only API that every
 * release since 0.9 has with the same signatures (catalog, schema builder, batch write and read,
 * internal data classes), so the same class file runs on each of them.
 *
 * <p>Commands:
 * <ul>
 * <li>{@code write WAREHOUSE [KEY=VALUE...]}: creates database {@value #DATABASE} in the warehouse
 *     and writes the tables of {@link #TABLES} into it, each with the given table options in
 *     addition to its own (a layout's file formats);</li>
 * <li>{@code read WAREHOUSE OUTPUT TABLE...}: reads each {@code db.table} with this release's own
 *     reader and writes its {@link CanonicalRows#text()} to {@code OUTPUT/db.table.txt}.</li>
 * </ul>
 * A failure ends the JVM with a stack trace on standard error and a non-zero exit code.
 */
public final class PaimonProcessMain
{
    public static final String DATABASE = "v";

    /**
     * The tables {@code write} creates: every primitive type (append), partitions with a null
     * partition value (append), a partitioned primary-key table merged on read after updates and
     * deletes, a primary-key table with deletion vectors, nested types, and a table whose schema
     * gained and renamed columns between commits.
     */
    public static final List<String> TABLES = List.of(
            DATABASE + ".append_types",
            DATABASE + ".partitioned",
            DATABASE + ".pk_merge",
            DATABASE + ".pk_deletion_vectors",
            DATABASE + ".nested",
            DATABASE + ".evolved");

    private PaimonProcessMain() {}

    public static void main(String[] args)
            throws Exception
    {
        if (args.length >= 2 && args[0].equals("write")) {
            Map<String, String> options = new LinkedHashMap<>();
            for (int i = 2; i < args.length; i++) {
                int equals = args[i].indexOf('=');
                if (equals <= 0) {
                    throw new IllegalArgumentException("Not a KEY=VALUE table option: " + args[i]);
                }
                options.put(args[i].substring(0, equals), args[i].substring(equals + 1));
            }
            write(Path.of(args[1]), options);
        }
        else if (args.length >= 3 && args[0].equals("read")) {
            Path output = Path.of(args[2]);
            Files.createDirectories(output);
            try (Catalog catalog = open(Path.of(args[1]))) {
                for (int i = 3; i < args.length; i++) {
                    Files.writeString(output.resolve(args[i] + ".txt"), read(catalog, args[i]).text(), StandardCharsets.UTF_8);
                }
            }
        }
        else {
            throw new IllegalArgumentException("Usage: write WAREHOUSE [KEY=VALUE...] | read WAREHOUSE OUTPUT TABLE...");
        }
    }

    private static Catalog open(Path warehouse)
    {
        Map<String, String> options = new HashMap<>();
        options.put("warehouse", warehouse.toAbsolutePath().toUri().toString());
        return CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(options)));
    }

    private static CanonicalRows read(Catalog catalog, String table)
            throws Exception
    {
        Table loaded = catalog.getTable(identifier(table));
        RowType rowType = loaded.rowType();
        ReadBuilder readBuilder = loaded.newReadBuilder();
        TableRead read = readBuilder.newRead();
        List<String> lines = new ArrayList<>();
        for (Split split : readBuilder.newScan().plan().splits()) {
            try (RecordReader<InternalRow> reader = read.createReader(split)) {
                // rows are reused views over the reader's buffers: format each before the next one
                reader.forEachRemaining(row -> lines.add(CanonicalValueFormatter.formatRow(row, rowType)));
            }
        }
        return CanonicalRows.of(lines);
    }

    private static Identifier identifier(String table)
    {
        int dot = table.indexOf('.');
        return Identifier.create(table.substring(0, dot), table.substring(dot + 1));
    }

    private static void write(Path warehouse, Map<String, String> layout)
            throws Exception
    {
        Files.createDirectories(warehouse);
        Path spill = Files.createTempDirectory("tarn-paimon-process-spill");
        try (Catalog catalog = open(warehouse); IOManager ioManager = IOManager.create(spill.toString())) {
            catalog.createDatabase(DATABASE, true);
            Writer writer = new Writer(catalog, ioManager, layout);
            writeAppendTypes(writer);
            writePartitioned(writer);
            writePrimaryKeyMerge(writer);
            writePrimaryKeyDeletionVectors(writer);
            writeNested(writer);
            writeEvolved(writer);
        }
        finally {
            try (var paths = Files.walk(spill)) {
                for (Path path : paths.sorted((left, right) -> right.compareTo(left)).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    private static void writeAppendTypes(Writer writer)
            throws Exception
    {
        String table = DATABASE + ".append_types";
        writer.create(table, Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("b", DataTypes.BOOLEAN())
                .column("ti", DataTypes.TINYINT())
                .column("si", DataTypes.SMALLINT())
                .column("i", DataTypes.INT())
                .column("bi", DataTypes.BIGINT())
                .column("f", DataTypes.FLOAT())
                .column("d", DataTypes.DOUBLE())
                .column("dec_small", DataTypes.DECIMAL(9, 2))
                .column("dec_big", DataTypes.DECIMAL(38, 10))
                .column("c", DataTypes.CHAR(5))
                .column("vc", DataTypes.VARCHAR(20))
                .column("s", DataTypes.STRING())
                .column("bin", DataTypes.BINARY(4))
                .column("vb", DataTypes.BYTES())
                .column("dt", DataTypes.DATE())
                .column("tm", DataTypes.TIME())
                .column("ts3", DataTypes.TIMESTAMP(3))
                .column("ts6", DataTypes.TIMESTAMP(6))
                .column("ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                .build());
        for (int commit = 0; commit < 2; commit++) {
            List<InternalRow> rows = new ArrayList<>();
            for (int n = commit * 40; n < commit * 40 + 40; n++) {
                boolean nulls = n % 7 == 3;
                long sign = n % 2 == 0 ? 1 : -1;
                rows.add(GenericRow.of(
                        n,
                        nulls ? null : n % 3 == 0,
                        nulls ? null : (byte) (sign * n),
                        nulls ? null : (short) (sign * n * 300),
                        nulls ? null : (int) (sign * n * 70_000),
                        nulls ? null : sign * n * 3_000_000_000L,
                        nulls ? null : (float) (sign * n / 3.0),
                        nulls ? null : sign * n / 7.0,
                        nulls ? null : Decimal.fromBigDecimal(BigDecimal.valueOf(sign * n * 1234, 2), 9, 2),
                        nulls ? null : Decimal.fromBigDecimal(new BigDecimal(sign * n + "12345678901234567.0123456789"), 38, 10),
                        nulls ? null : BinaryString.fromString(String.format("c%-4d", n % 100).substring(0, 5)),
                        nulls ? null : BinaryString.fromString("v\u00e9" + n + (n % 5 == 0 ? "\t\u4e16" : "")),
                        nulls ? null : BinaryString.fromString("row " + n + " \u2603".repeat(n % 3)),
                        nulls ? null : new byte[] {(byte) n, (byte) (n >> 8), 0, (byte) 0xff},
                        nulls ? null : ("bytes" + n).getBytes(StandardCharsets.UTF_8),
                        nulls ? null : (int) (sign * n * 400),
                        nulls ? null : n * 1_234_000 % 86_400_000,
                        nulls ? null : Timestamp.fromEpochMillis(sign * n * 86_400_123L),
                        nulls ? null : Timestamp.fromEpochMillis(sign * n * 86_400_123L + 7, n * 1000 % 1_000_000),
                        nulls ? null : Timestamp.fromEpochMillis(1_700_000_000_000L + sign * n * 3_600_007L),
                        nulls ? null : Timestamp.fromEpochMillis(1_700_000_000_000L + sign * n * 3_600_007L, n * 1000 % 1_000_000)));
            }
            writer.commit(table, rows);
        }
    }

    private static void writePartitioned(Writer writer)
            throws Exception
    {
        String table = DATABASE + ".partitioned";
        writer.create(table, Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("region", DataTypes.INT())
                .column("id", DataTypes.BIGINT())
                .column("payload", DataTypes.STRING())
                .partitionKeys("dt", "region")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            List<InternalRow> rows = new ArrayList<>();
            for (int n = 0; n < 30; n++) {
                int id = commit * 100 + n;
                rows.add(GenericRow.of(
                        BinaryString.fromString("2024-0" + (1 + (id % 3)) + "-01"),
                        n % 10 == 9 ? null : n % 4,
                        (long) id,
                        BinaryString.fromString("p" + id)));
            }
            writer.commit(table, rows);
        }
    }

    private static void writePrimaryKeyMerge(Writer writer)
            throws Exception
    {
        String table = DATABASE + ".pk_merge";
        writer.create(table, Schema.newBuilder()
                .column("p", DataTypes.STRING().notNull())
                .column("k", DataTypes.INT().notNull())
                .column("name", DataTypes.STRING())
                .column("amount", DataTypes.BIGINT())
                .partitionKeys("p")
                .primaryKey("p", "k")
                .option("bucket", "2")
                .build());
        List<InternalRow> first = new ArrayList<>();
        for (int k = 0; k < 60; k++) {
            first.add(GenericRow.of(partition(k), k, BinaryString.fromString("first " + k), k * 10L));
        }
        writer.commit(table, first);
        List<InternalRow> second = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            second.add(GenericRow.of(partition(k), k, BinaryString.fromString("second " + k), null));
        }
        for (int k = 20; k < 30; k++) {
            second.add(GenericRow.ofKind(RowKind.DELETE, partition(k), k, null, null));
        }
        writer.commit(table, second);
        List<InternalRow> third = new ArrayList<>();
        for (int k = 5; k < 70; k += 5) {
            third.add(GenericRow.of(partition(k), k, BinaryString.fromString("third " + k), -k * 1L));
        }
        writer.commit(table, third);
    }

    private static BinaryString partition(int key)
    {
        return BinaryString.fromString(key % 2 == 0 ? "even" : "odd");
    }

    private static void writePrimaryKeyDeletionVectors(Writer writer)
            throws Exception
    {
        String table = DATABASE + ".pk_deletion_vectors";
        writer.create(table, Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .column("n", DataTypes.DOUBLE())
                .primaryKey("k")
                .option("bucket", "1")
                .option("deletion-vectors.enabled", "true")
                .build());
        List<InternalRow> first = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            first.add(GenericRow.of(k, BinaryString.fromString("first " + k), k / 4.0));
        }
        writer.commit(table, first);
        writer.compact(table);
        List<InternalRow> second = new ArrayList<>();
        for (int k = 0; k < 50; k += 3) {
            second.add(k % 2 == 0
                    ? GenericRow.of(k, BinaryString.fromString("second " + k), null)
                    : GenericRow.ofKind(RowKind.DELETE, k, null, null));
        }
        writer.commit(table, second);
        writer.compact(table);
        List<InternalRow> third = new ArrayList<>();
        for (int k = 45; k < 55; k++) {
            third.add(GenericRow.of(k, BinaryString.fromString("third " + k), -k * 1.5));
        }
        // left at level 0: deletion-vector reads do not see it until a compaction
        writer.commit(table, third);
    }

    private static void writeNested(Writer writer)
            throws Exception
    {
        String table = DATABASE + ".nested";
        writer.create(table, Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("ints", DataTypes.ARRAY(DataTypes.INT()))
                .column("tags", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
                .column("point", DataTypes.ROW(DataTypes.FIELD(100, "x", DataTypes.INT()), DataTypes.FIELD(101, "label", DataTypes.STRING())))
                .column("items", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(102, "sku", DataTypes.BIGINT()), DataTypes.FIELD(103, "note", DataTypes.STRING()))))
                .column("groups", DataTypes.MAP(DataTypes.INT(), DataTypes.ARRAY(DataTypes.STRING())))
                .build());
        List<InternalRow> rows = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            boolean nulls = n % 6 == 5;
            Map<Object, Object> tags = new LinkedHashMap<>();
            Map<Object, Object> groups = new LinkedHashMap<>();
            for (int i = 0; i < n % 4; i++) {
                tags.put(BinaryString.fromString("t" + i), i % 3 == 2 ? null : n * i);
                groups.put(i, i % 2 == 1 ? null : new GenericArray(new Object[] {BinaryString.fromString("g" + n), null, BinaryString.fromString("")}));
            }
            Object[] ints = new Object[n % 5];
            for (int i = 0; i < ints.length; i++) {
                ints[i] = i == 2 ? null : n - i;
            }
            Object[] items = new Object[n % 3];
            for (int i = 0; i < items.length; i++) {
                items[i] = i == 1 && n % 2 == 0 ? null : GenericRow.of((long) n * 1000 + i, n % 4 == 0 ? null : BinaryString.fromString("note \"" + i + "\""));
            }
            rows.add(GenericRow.of(
                    n,
                    nulls ? null : new GenericArray(ints),
                    nulls ? null : new GenericMap(tags),
                    nulls ? null : GenericRow.of(n % 3 == 0 ? null : n * 7, BinaryString.fromString("label " + n)),
                    nulls ? null : new GenericArray(items),
                    nulls ? null : new GenericMap(groups)));
        }
        writer.commit(table, rows);
    }

    private static void writeEvolved(Writer writer)
            throws Exception
    {
        String table = DATABASE + ".evolved";
        writer.create(table, Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("a", DataTypes.STRING())
                .column("small", DataTypes.INT())
                .build());
        List<InternalRow> first = new ArrayList<>();
        for (int n = 0; n < 20; n++) {
            first.add(GenericRow.of(n, BinaryString.fromString("a" + n), n * 3));
        }
        writer.commit(table, first);
        writer.alter(table, List.of(
                SchemaChange.addColumn("c", DataTypes.BIGINT()),
                SchemaChange.renameColumn("a", "renamed"),
                SchemaChange.updateColumnType("small", DataTypes.BIGINT())));
        List<InternalRow> second = new ArrayList<>();
        for (int n = 20; n < 30; n++) {
            second.add(GenericRow.of(n, BinaryString.fromString("b" + n), n * 5_000_000_000L, (long) n));
        }
        writer.commit(table, second);
    }

    /**
     * Batch writes, one {@link BatchWriteBuilder} per commit as Paimon requires.
     */
    private record Writer(Catalog catalog, IOManager ioManager, Map<String, String> layout)
    {
        void create(String table, Schema schema)
                throws Exception
        {
            Map<String, String> options = new HashMap<>(schema.options());
            options.putAll(layout);
            catalog.createTable(identifier(table), new Schema(schema.fields(), schema.partitionKeys(), schema.primaryKeys(), options, schema.comment()), false);
        }

        void alter(String table, List<SchemaChange> changes)
                throws Exception
        {
            catalog.alterTable(identifier(table), changes, false);
        }

        void commit(String table, List<InternalRow> rows)
                throws Exception
        {
            BatchWriteBuilder builder = catalog.getTable(identifier(table)).newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                withIOManager(write, ioManager);
                for (InternalRow row : rows) {
                    write.write(row);
                }
                commit.commit(write.prepareCommit());
            }
        }

        // through TableWrite: BatchTableWrite overrides it with another return type since Paimon 1.4
        private static void withIOManager(TableWrite write, IOManager ioManager)
        {
            write.withIOManager(ioManager);
        }

        /**
         * Fully compacts bucket 0 of an unpartitioned table.
         */
        void compact(String table)
                throws Exception
        {
            BatchWriteBuilder builder = catalog.getTable(identifier(table)).newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                withIOManager(write, ioManager);
                write.compact(BinaryRow.EMPTY_ROW, 0, true);
                commit.commit(write.prepareCommit());
            }
        }
    }
}
