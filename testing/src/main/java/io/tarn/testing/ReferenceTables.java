package io.tarn.testing;

import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Seeded, deterministic reference tables written with Apache Paimon's Java API into a warehouse
 * (database {@code ref}): a local directory, or, in the JDK 17 child JVM of {@link PaimonOnS3}, an
 * S3 bucket ({@link PaimonWarehouse}). Every table has several commits. Data files, snapshot times
 * and UUIDs differ per run; the rows, snapshot ids, tags and branches do not.
 *
 * <p>Each {@code createXxx} method creates one table (it fails if the table exists), so a test can
 * create only what it needs; {@link #createAll} creates every table of {@link #all()}. The
 * comments in each method state the rows each commit leaves, which the tests check by hand.
 * {@link ReferenceReader} and {@link ReferencePlan} read any table of a Paimon filesystem catalog's
 * warehouse, not only these.
 */
public final class ReferenceTables
{
    public static final String DATABASE = ReferenceTableWriter.DATABASE;

    public static final ReferenceTable APPEND_ALL_TYPES = appendTable("append_all_types",
            "Unpartitioned append table with every primitive type, NULLs, non-ASCII and control characters; 3 commits; tag t1 on snapshot 1",
            List.of(), -1, 120, List.of("t1"));
    public static final ReferenceTable APPEND_PARTITIONED = appendTable("append_partitioned",
            "Append table partitioned by (dt STRING, region INT): 5 snapshots, snapshot 4 overwrites dt=2024-01-02/region=1, null and escaped partition values",
            List.of("dt", "region"), -1, 42, List.of("t1", "after_2", "after_overwrite"));
    public static final ReferenceTable APPEND_DATE_PARTITIONED = appendTable("append_date_partitioned",
            "Append table partitioned by a DATE column (legacy epoch-day partition names), including a null date and dates before 1970",
            List.of("d"), -1, 40, List.of());
    public static final ReferenceTable APPEND_BUCKETED = appendTable("append_bucketed",
            "Append table with bucket=4, bucket-key=id; 3 commits",
            List.of(), 4, 150, List.of());
    public static final ReferenceTable PK_DEDUP = new ReferenceTable(DATABASE + ".pk_dedup",
            "Primary-key table (id, dt), partitioned by dt, bucket=2, write-only=true: overlapping level-0 files with updates and deletes",
            List.of("id", "dt"), List.of("dt"), 2, 60, List.of(), List.of());
    public static final ReferenceTable PK_DV = new ReferenceTable(DATABASE + ".pk_dv",
            "Primary-key table with deletion vectors, bucket=2; compacted commits with deletion vectors and a last uncompacted (level-0, invisible) commit",
            List.of("id"), List.of(), 2, 64, List.of(), List.of());
    public static final ReferenceTable PK_PARTIAL_UPDATE = new ReferenceTable(DATABASE + ".pk_partial_update",
            "Primary-key table with merge-engine=partial-update, bucket=1, write-only=true",
            List.of("id"), List.of(), 1, 25, List.of(), List.of());
    public static final ReferenceTable PK_AGGREGATION = new ReferenceTable(DATABASE + ".pk_aggregation",
            "Primary-key table with merge-engine=aggregation (sum, max, min, last_non_null_value), bucket=1, write-only=true",
            List.of("id"), List.of(), 1, 25, List.of(), List.of());
    public static final ReferenceTable PK_FIRST_ROW = new ReferenceTable(DATABASE + ".pk_first_row",
            "Primary-key table with merge-engine=first-row, bucket=1",
            List.of("id"), List.of(), 1, 30, List.of(), List.of());
    public static final ReferenceTable APPEND_NESTED = appendTable("append_nested",
            "Append table with ARRAY<INT>, ARRAY<STRING>, MAP<STRING,INT>, ROW<x INT, y STRING> and nested nulls",
            List.of(), -1, 40, List.of());
    public static final ReferenceTable APPEND_EVOLVED = appendTable("append_evolved",
            "Append table evolved by add, rename, drop, move-first and INT->BIGINT widening, one commit per schema (schemas 0..5)",
            List.of(), -1, 60, List.of());
    public static final ReferenceTable APPEND_FILE_INDEX = appendTable("append_file_index",
            "Append table with bloom-filter (id, name) and bitmap (category) file indexes embedded in the manifest",
            List.of(), -1, 150, List.of());
    public static final ReferenceTable APPEND_FILE_INDEX_FILES = appendTable("append_file_index_files",
            "Append table with bloom-filter (id, name) and bitmap (category) file indexes in .index files",
            List.of(), -1, 150, List.of());
    public static final ReferenceTable APPEND_ZORDER = appendTable("append_zorder",
            "Append table of a 16x16 grid (x, y in -8..7) sorted by z-order of (x, y), 8 files of 32 rows with tight min/max stats",
            List.of(), -1, 256, List.of());
    public static final ReferenceTable TIME_TRAVEL = new ReferenceTable(DATABASE + ".time_travel",
            "Append table with 5 commits of 10 rows, tag t_old on snapshot 2 (expired: snapshots 1..3 are gone), tag t_latest on 5, branch b1 from t_old with 5 more rows",
            List.of(), List.of(), -1, 50, List.of("t_old", "t_latest"), List.of("b1"));

    private static final List<ReferenceTable> ALL = List.of(
            APPEND_ALL_TYPES,
            APPEND_PARTITIONED,
            APPEND_DATE_PARTITIONED,
            APPEND_BUCKETED,
            PK_DEDUP,
            PK_DV,
            PK_PARTIAL_UPDATE,
            PK_AGGREGATION,
            PK_FIRST_ROW,
            APPEND_NESTED,
            APPEND_EVOLVED,
            APPEND_FILE_INDEX,
            APPEND_FILE_INDEX_FILES,
            APPEND_ZORDER,
            TIME_TRAVEL);

    // strings that exercise escaping, multi-byte UTF-8 and the UTF-16 vs UTF-8 order difference
    private static final List<String> SPECIAL_STRINGS = List.of(
            "",
            "plain",
            "čšž",
            "日本",
            "emoji 😀",
            "tab\there",
            "line\nfeed",
            "cr\rhere",
            "back\\slash",
            "quote\"s",
            "Ａ fullwidth",
            "Zürich");
    private static final List<String> CHAR_VALUES = List.of("ab", "abcde", "čšž", "日本", "x\ty", "a\\b", "😀");

    private ReferenceTables() {}

    public static List<ReferenceTable> all()
    {
        return ALL;
    }

    public static ReferenceTable byIdentifier(String identifier)
    {
        return ALL.stream()
                .filter(table -> table.identifier().equals(identifier))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown reference table: " + identifier));
    }

    public static void createAll(Path warehouse)
    {
        createAll(warehouse, ReferenceLayout.PARQUET);
    }

    /**
     * Every table of {@link #all()}, its data files laid out as {@code layout} says.
     */
    public static void createAll(Path warehouse, ReferenceLayout layout)
    {
        for (ReferenceTable table : ALL) {
            create(warehouse, table, layout);
        }
    }

    public static ReferenceTable create(Path warehouse, String identifier)
    {
        return create(warehouse, byIdentifier(identifier));
    }

    public static ReferenceTable create(Path warehouse, ReferenceTable table)
    {
        return create(warehouse, table, ReferenceLayout.PARQUET);
    }

    /**
     * Writes {@code table} with the same rows, commits, tags and branches whatever the layout:
     * only the format of its data files differs.
     */
    public static ReferenceTable create(Path warehouse, ReferenceTable table, ReferenceLayout layout)
    {
        requireNonNull(warehouse, "warehouse is null");
        return create(PaimonWarehouse.local(warehouse), table, layout);
    }

    public static ReferenceTable create(PaimonWarehouse warehouse, ReferenceTable table, ReferenceLayout layout)
    {
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(table, "table is null");
        requireNonNull(layout, "layout is null");
        BiFunction<PaimonWarehouse, ReferenceLayout, ReferenceTable> creator = switch (table.tableName()) {
            case "append_all_types" -> ReferenceTables::createAppendAllTypes;
            case "append_partitioned" -> ReferenceTables::createAppendPartitioned;
            case "append_date_partitioned" -> ReferenceTables::createAppendDatePartitioned;
            case "append_bucketed" -> ReferenceTables::createAppendBucketed;
            case "pk_dedup" -> ReferenceTables::createPkDedup;
            case "pk_dv" -> ReferenceTables::createPkDv;
            case "pk_partial_update" -> ReferenceTables::createPkPartialUpdate;
            case "pk_aggregation" -> ReferenceTables::createPkAggregation;
            case "pk_first_row" -> ReferenceTables::createPkFirstRow;
            case "append_nested" -> ReferenceTables::createAppendNested;
            case "append_evolved" -> ReferenceTables::createAppendEvolved;
            case "append_file_index" -> ReferenceTables::createAppendFileIndex;
            case "append_file_index_files" -> ReferenceTables::createAppendFileIndexFiles;
            case "append_zorder" -> ReferenceTables::createAppendZorder;
            case "time_travel" -> ReferenceTables::createTimeTravel;
            default -> throw new IllegalArgumentException("Unknown reference table: " + table.identifier());
        };
        return creator.apply(warehouse, layout);
    }

    /**
     * The snapshots still present on the main branch, by id.
     */
    public static List<ReferenceSnapshot> snapshots(Path warehouse, String table)
    {
        requireNonNull(warehouse, "warehouse is null");
        return snapshots(PaimonWarehouse.local(warehouse), table);
    }

    public static List<ReferenceSnapshot> snapshots(PaimonWarehouse warehouse, String table)
    {
        FileStoreTable loaded = ReferenceCatalog.load(warehouse, table);
        List<ReferenceSnapshot> snapshots = new ArrayList<>();
        try {
            Iterator<Snapshot> iterator = loaded.snapshotManager().snapshots();
            while (iterator.hasNext()) {
                Snapshot snapshot = iterator.next();
                Long total = snapshot.totalRecordCount();
                snapshots.add(new ReferenceSnapshot(
                        snapshot.id(),
                        snapshot.schemaId(),
                        snapshot.commitKind().name(),
                        snapshot.timeMillis(),
                        total == null ? -1 : total));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot list snapshots of " + table, e);
        }
        snapshots.sort((left, right) -> Long.compare(left.id(), right.id()));
        return List.copyOf(snapshots);
    }

    /**
     * The names of the tags of the main branch, sorted.
     */
    public static List<String> tags(PaimonWarehouse warehouse, String table)
    {
        FileStoreTable loaded = ReferenceCatalog.load(warehouse, table);
        return loaded.tagManager().allTagNames().stream().sorted().toList();
    }

    /**
     * Snapshot id to commit time (epoch millis) of the snapshots still present on the main branch.
     */
    public static NavigableMap<Long, Long> snapshotTimes(Path warehouse, String table)
    {
        TreeMap<Long, Long> times = new TreeMap<>();
        for (ReferenceSnapshot snapshot : snapshots(warehouse, table)) {
            times.put(snapshot.id(), snapshot.timeMillis());
        }
        return Collections.unmodifiableNavigableMap(times);
    }

    // ---------------------------------------------------------------- a. every primitive type

    private static ReferenceTable createAppendAllTypes(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = APPEND_ALL_TYPES;
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("f_boolean", DataTypes.BOOLEAN())
                .column("f_tinyint", DataTypes.TINYINT())
                .column("f_smallint", DataTypes.SMALLINT())
                .column("f_int", DataTypes.INT())
                .column("f_bigint", DataTypes.BIGINT())
                .column("f_float", DataTypes.FLOAT())
                .column("f_double", DataTypes.DOUBLE())
                .column("f_decimal_10_2", DataTypes.DECIMAL(10, 2))
                .column("f_decimal_38_10", DataTypes.DECIMAL(38, 10))
                .column("f_char", DataTypes.CHAR(5))
                .column("f_varchar", DataTypes.VARCHAR(20))
                .column("f_string", DataTypes.STRING())
                .column("f_binary", DataTypes.BINARY(4))
                .column("f_varbinary", DataTypes.VARBINARY(10))
                .column("f_bytes", DataTypes.BYTES())
                .column("f_date", DataTypes.DATE())
                .column("f_time", DataTypes.TIME())
                .column("f_ts0", DataTypes.TIMESTAMP(0))
                .column("f_ts3", DataTypes.TIMESTAMP(3))
                .column("f_ts6", DataTypes.TIMESTAMP(6))
                .column("f_ts9", DataTypes.TIMESTAMP(9))
                .column("f_ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("f_ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                .build();
        Random random = new Random(1_001);
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            int id = 0;
            for (int commit = 0; commit < 3; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    rows.add(allTypesRow(id++, random));
                }
                writer.commit(table, rows);
            }
            table.createTag("t1", 1);
        }
        return descriptor;
    }

    private static GenericRow allTypesRow(int id, Random random)
    {
        Object[] values = new Object[24];
        values[0] = id;
        // ids 13, 22, 31, ... are all NULLs; the edge and special-string rows (ids below 12) have no NULLs
        boolean allNull = id > SPECIAL_STRINGS.size() && id % 9 == 4;
        long millis = switch (id) {
            case 0 -> -1L;
            case 1 -> 0L;
            case 2 -> 2_147_483_647_999L;
            default -> random.nextLong(-2_000_000_000_000L, 4_000_000_000_000L);
        };
        int nanos = id == 2 ? 999_999 : random.nextInt(1_000_000);
        values[1] = random.nextBoolean();
        values[2] = switch (id) {
            case 0 -> Byte.MIN_VALUE;
            case 1 -> Byte.MAX_VALUE;
            default -> (byte) random.nextInt();
        };
        values[3] = switch (id) {
            case 0 -> Short.MIN_VALUE;
            case 1 -> Short.MAX_VALUE;
            default -> (short) random.nextInt();
        };
        values[4] = switch (id) {
            case 0 -> Integer.MIN_VALUE;
            case 1 -> Integer.MAX_VALUE;
            default -> random.nextInt();
        };
        values[5] = switch (id) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            default -> random.nextLong();
        };
        float[] floats = {0.0f, -0.0f, 1.5f, -3.25f, Float.MIN_VALUE, Float.MAX_VALUE, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1.0e10f, 0.1f};
        values[6] = id < floats.length ? floats[id] : (random.nextFloat() - 0.5f) * 2000;
        double[] doubles = {0.0, -0.0, 1.5, -3.25, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0e100, 0.1};
        values[7] = id < doubles.length ? doubles[id] : (random.nextDouble() - 0.5) * 2e6;
        BigDecimal decimal10 = switch (id) {
            case 0 -> new BigDecimal("-99999999.99");
            case 1 -> new BigDecimal("99999999.99");
            case 2 -> new BigDecimal("-211.20");
            case 3 -> new BigDecimal("0.00");
            default -> BigDecimal.valueOf(random.nextLong(-9_999_999_999L, 10_000_000_000L), 2);
        };
        values[8] = Decimal.fromBigDecimal(decimal10, 10, 2);
        BigDecimal decimal38 = switch (id) {
            case 0 -> new BigDecimal("-9999999999999999999999999999.9999999999");
            case 1 -> new BigDecimal("9999999999999999999999999999.9999999999");
            case 2 -> new BigDecimal("0.0000000001");
            default -> new BigDecimal(new BigInteger(120, random).multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)), 10);
        };
        values[9] = Decimal.fromBigDecimal(decimal38, 38, 10);
        values[10] = BinaryString.fromString(CHAR_VALUES.get(random.nextInt(CHAR_VALUES.size())));
        values[11] = BinaryString.fromString(id < SPECIAL_STRINGS.size() ? SPECIAL_STRINGS.get(id) : randomString(random, 0, 20));
        values[12] = BinaryString.fromString(SPECIAL_STRINGS.get(random.nextInt(SPECIAL_STRINGS.size())) + randomString(random, 0, 40));
        values[13] = randomBytes(random, 4, 4);
        values[14] = randomBytes(random, 0, 10);
        values[15] = randomBytes(random, 0, 24);
        values[16] = switch (id) {
            case 0 -> -1;
            case 1 -> 0;
            case 2 -> (int) LocalDate.of(2024, 2, 29).toEpochDay();
            default -> random.nextInt(-25_000, 50_000);
        };
        values[17] = switch (id) {
            case 0 -> 0;
            case 1 -> 86_399_000;
            case 2 -> 12 * 3_600_000 + 30 * 60_000;
            default -> random.nextInt(86_400) * 1000;
        };
        values[18] = Timestamp.fromEpochMillis(Math.floorDiv(millis, 1000) * 1000);
        values[19] = Timestamp.fromEpochMillis(millis);
        values[20] = Timestamp.fromEpochMillis(millis, nanos / 1000 * 1000);
        values[21] = Timestamp.fromEpochMillis(millis, nanos);
        values[22] = Timestamp.fromEpochMillis(millis + 12_345);
        values[23] = Timestamp.fromEpochMillis(millis - 54_321, nanos / 1000 * 1000);
        for (int i = 1; i < values.length; i++) {
            if (allNull || (id >= SPECIAL_STRINGS.size() && random.nextInt(10) == 0)) {
                values[i] = null;
            }
        }
        return GenericRow.of(values);
    }

    // ---------------------------------------------------------------- b. partitioned append

    private static ReferenceTable createAppendPartitioned(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = APPEND_PARTITIONED;
        Schema schema = Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("region", DataTypes.INT())
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .column("amount", DataTypes.DOUBLE())
                .partitionKeys("dt", "region")
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            Counter ids = new Counter();
            // snapshot 1: 20 rows
            List<GenericRow> rows = new ArrayList<>();
            rows.addAll(partitionedRows("2024-01-01", 1, 5, ids));
            rows.addAll(partitionedRows("2024-01-01", 2, 5, ids));
            rows.addAll(partitionedRows("2024-01-02", 1, 5, ids));
            rows.addAll(partitionedRows("2024-01-02", 2, 5, ids));
            writer.commit(table, rows);
            // snapshot 2: 35 rows
            rows = new ArrayList<>();
            rows.addAll(partitionedRows("2024-01-03", 1, 5, ids));
            rows.addAll(partitionedRows("2024-01-03", null, 5, ids));
            rows.addAll(partitionedRows("a/b:c=d", 3, 5, ids));
            writer.commit(table, rows);
            // snapshot 3: 40 rows
            writer.commit(table, partitionedRows("2024-01-01", 1, 5, ids));
            // snapshot 4 (OVERWRITE): dt=2024-01-02/region=1 goes from 5 to 3 rows, 38 rows
            writer.overwrite(table, Map.of("dt", "2024-01-02", "region", "1"), partitionedRows("2024-01-02", 1, 3, ids));
            // snapshot 5: 42 rows
            writer.commit(table, partitionedRows(null, 2, 4, ids));
            table.createTag("t1", 1);
            table.createTag("after_2", 2);
            table.createTag("after_overwrite", 4);
        }
        return descriptor;
    }

    private static List<GenericRow> partitionedRows(String dt, Integer region, int count, Counter ids)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int id = ids.next();
            rows.add(GenericRow.of(
                    dt == null ? null : BinaryString.fromString(dt),
                    region,
                    id,
                    id % 7 == 3 ? null : BinaryString.fromString("name-" + id),
                    id * 1.25));
        }
        return rows;
    }

    // ---------------------------------------------------------------- c. DATE partition

    private static ReferenceTable createAppendDatePartitioned(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = APPEND_DATE_PARTITIONED;
        Schema schema = Schema.newBuilder()
                .column("d", DataTypes.DATE())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .partitionKeys("d")
                .build();
        Integer[] dates = {
                (int) LocalDate.of(2024, 1, 1).toEpochDay(),
                (int) LocalDate.of(2024, 2, 29).toEpochDay(),
                -1,
                0,
                null};
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            Counter ids = new Counter();
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 5; j++) {
                    rows.add(dateRow(dates[i], ids.next()));
                }
            }
            writer.commit(table, rows);
            rows = new ArrayList<>();
            for (Integer date : dates) {
                for (int j = 0; j < 4; j++) {
                    rows.add(dateRow(date, ids.next()));
                }
            }
            writer.commit(table, rows);
        }
        return descriptor;
    }

    private static GenericRow dateRow(Integer date, int id)
    {
        return GenericRow.of(date, id, BinaryString.fromString("v" + id));
    }

    // ---------------------------------------------------------------- d. fixed buckets

    private static ReferenceTable createAppendBucketed(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = APPEND_BUCKETED;
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("k", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .option("bucket", "4")
                .option("bucket-key", "id")
                .option("write-only", "true")
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            for (int commit = 0; commit < 3; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    int id = commit * 50 + i;
                    rows.add(GenericRow.of(id, BinaryString.fromString("k" + (id % 13)), (long) id * id));
                }
                writer.commit(table, rows);
            }
        }
        return descriptor;
    }

    // ---------------------------------------------------------------- e. deduplicate merge-on-read

    private static ReferenceTable createPkDedup(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = PK_DEDUP;
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("dt", DataTypes.STRING().notNull())
                .column("name", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .primaryKey("id", "dt")
                .partitionKeys("dt")
                .option("bucket", "2")
                .option("write-only", "true")
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            // commit 1: ids 0..29 in two partitions, 60 rows
            List<GenericRow> rows = new ArrayList<>();
            for (String dt : List.of("2024-01-01", "2024-01-02")) {
                for (int id = 0; id < 30; id++) {
                    rows.add(dedupRow(RowKind.INSERT, id, dt, "v1", id));
                }
            }
            writer.commit(table, rows);
            // commit 2: update every third id of 2024-01-01, still 60 rows
            rows = new ArrayList<>();
            for (int id = 0; id < 30; id += 3) {
                rows.add(dedupRow(RowKind.UPDATE_AFTER, id, "2024-01-01", "v2", id * 10L));
            }
            writer.commit(table, rows);
            // commit 3: delete every fifth id of 2024-01-02 (6 rows), insert ids 30..34 in 2024-01-01: 59 rows
            rows = new ArrayList<>();
            for (int id = 0; id < 30; id += 5) {
                rows.add(dedupRow(RowKind.DELETE, id, "2024-01-02", "v1", id));
            }
            for (int id = 30; id < 35; id++) {
                rows.add(dedupRow(RowKind.INSERT, id, "2024-01-01", "v3", id));
            }
            writer.commit(table, rows);
            // commit 4: update every sixth id of 2024-01-01 again, re-insert deleted id 5 of 2024-01-02: 60 rows
            rows = new ArrayList<>();
            for (int id = 0; id < 30; id += 6) {
                rows.add(dedupRow(RowKind.UPDATE_AFTER, id, "2024-01-01", "v4", -id));
            }
            rows.add(dedupRow(RowKind.INSERT, 5, "2024-01-02", "v4", 555));
            writer.commit(table, rows);
        }
        return descriptor;
    }

    private static GenericRow dedupRow(RowKind kind, int id, String dt, String version, long value)
    {
        return GenericRow.ofKind(kind, id, BinaryString.fromString(dt), BinaryString.fromString(version + "-" + id), value);
    }

    // ---------------------------------------------------------------- f. deletion vectors

    private static ReferenceTable createPkDv(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = PK_DV;
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("name", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "2")
                .option("deletion-vectors.enabled", "true")
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            // commit 1: ids 0..59, then a full compaction puts them on the highest level
            List<GenericRow> rows = new ArrayList<>();
            for (int id = 0; id < 60; id++) {
                rows.add(dvRow(RowKind.INSERT, id, "a", id));
            }
            writer.commit(table, rows);
            writer.compactAll(table);
            // commit 2: update every fourth id; the writer's lookup compaction marks the old rows in deletion vectors
            rows = new ArrayList<>();
            for (int id = 0; id < 60; id += 4) {
                rows.add(dvRow(RowKind.UPDATE_AFTER, id, "b", id * 100L));
            }
            writer.commit(table, rows);
            // commit 3: delete ids 1, 11, .., 51 and insert 60..69: 64 rows
            rows = new ArrayList<>();
            for (int id = 1; id < 60; id += 10) {
                rows.add(dvRow(RowKind.DELETE, id, "a", id));
            }
            for (int id = 60; id < 70; id++) {
                rows.add(dvRow(RowKind.INSERT, id, "c", id));
            }
            writer.commit(table, rows);
            // commit 4, write-only: stays on level 0, which batch reads of a deletion-vector table do not see
            rows = new ArrayList<>();
            for (int id = 2; id < 12; id += 4) {
                rows.add(dvRow(RowKind.UPDATE_AFTER, id, "d", -id));
            }
            for (int id = 70; id < 75; id++) {
                rows.add(dvRow(RowKind.INSERT, id, "d", id));
            }
            writer.commit(table.copy(Map.of("write-only", "true")), rows);
        }
        return descriptor;
    }

    private static GenericRow dvRow(RowKind kind, int id, String version, long value)
    {
        return GenericRow.ofKind(kind, id, BinaryString.fromString(version + id), value);
    }

    // ---------------------------------------------------------------- g. merge engines

    private static ReferenceTable createPkPartialUpdate(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = PK_PARTIAL_UPDATE;
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .column("c", DataTypes.DOUBLE())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .option("write-only", "true")
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            List<GenericRow> rows = new ArrayList<>();
            for (int id = 0; id < 20; id++) {
                rows.add(GenericRow.of(id, BinaryString.fromString("a" + id), null, null));
            }
            writer.commit(table, rows);
            rows = new ArrayList<>();
            for (int id = 0; id < 20; id += 2) {
                rows.add(GenericRow.of(id, null, id * 2, null));
            }
            writer.commit(table, rows);
            rows = new ArrayList<>();
            for (int id = 0; id < 20; id += 3) {
                rows.add(GenericRow.of(id, id % 2 == 0 ? BinaryString.fromString("a'" + id) : null, null, id / 4.0));
            }
            writer.commit(table, rows);
            rows = new ArrayList<>();
            for (int id = 20; id < 25; id++) {
                rows.add(GenericRow.of(id, BinaryString.fromString("new" + id), id, id + 0.5));
            }
            writer.commit(table, rows);
        }
        return descriptor;
    }

    private static ReferenceTable createPkAggregation(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = PK_AGGREGATION;
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("total", DataTypes.BIGINT())
                .column("highest", DataTypes.INT())
                .column("lowest", DataTypes.DOUBLE())
                .column("label", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("fields.highest.aggregate-function", "max")
                .option("fields.lowest.aggregate-function", "min")
                .option("fields.label.aggregate-function", "last_non_null_value")
                .option("write-only", "true")
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            // commit c writes ids 0..19, then 5..24, then 0..24 step 3 (25 keys); values are formulas of
            // (id, c) so that tests can aggregate them by hand
            int[][] ranges = {{0, 20, 1}, {5, 25, 1}, {0, 25, 3}};
            for (int commit = 0; commit < ranges.length; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int id = ranges[commit][0]; id < ranges[commit][1]; id += ranges[commit][2]) {
                    rows.add(GenericRow.of(
                            id,
                            id * 10L + commit,
                            (id + commit) % 7 == 0 ? null : (id * 7 + commit * 13) % 50,
                            ((id * 3 + commit * 5) % 11) / 2.0,
                            (id + commit) % 3 == 0 ? null : BinaryString.fromString("label-" + commit + "-" + id)));
                }
                writer.commit(table, rows);
            }
        }
        return descriptor;
    }

    private static ReferenceTable createPkFirstRow(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = PK_FIRST_ROW;
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "first-row")
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            // ids 0..19, then 10..29: ids 10..19 keep their first value
            for (int commit = 0; commit < 2; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int id = commit * 10; id < commit * 10 + 20; id++) {
                    rows.add(GenericRow.of(id, BinaryString.fromString((commit == 0 ? "first-" : "second-") + id)));
                }
                writer.commit(table, rows);
            }
        }
        return descriptor;
    }

    // ---------------------------------------------------------------- h. nested types

    private static ReferenceTable createAppendNested(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = APPEND_NESTED;
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("arr_int", DataTypes.ARRAY(DataTypes.INT()))
                .column("arr_str", DataTypes.ARRAY(DataTypes.STRING()))
                .column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
                .column("r", DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.INT()), DataTypes.FIELD(1, "y", DataTypes.STRING())))
                .build();
        Random random = new Random(8_008);
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            int id = 0;
            for (int commit = 0; commit < 2; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    rows.add(nestedRow(id++, random));
                }
                writer.commit(table, rows);
            }
        }
        return descriptor;
    }

    private static GenericRow nestedRow(int id, Random random)
    {
        List<String> strings = List.of("a", "", "q\"uote", "back\\slash", "tab\t", "comma,[x]", "čšž", "😀", "{k=v}");
        GenericArray ints = null;
        if (id % 10 != 1) {
            Object[] values = new Object[id % 10 == 2 ? 0 : random.nextInt(1, 5)];
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextInt(6) == 0 ? null : random.nextInt(-100, 100);
            }
            ints = new GenericArray(values);
        }
        GenericArray texts = null;
        if (id % 10 != 3) {
            Object[] values = new Object[random.nextInt(0, 4)];
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextInt(5) == 0 ? null : BinaryString.fromString(strings.get(random.nextInt(strings.size())));
            }
            texts = new GenericArray(values);
        }
        GenericMap map = null;
        if (id % 10 != 5) {
            Map<Object, Object> entries = new LinkedHashMap<>();
            int size = random.nextInt(0, 4);
            for (int i = 0; i < size; i++) {
                entries.put(BinaryString.fromString("k" + i + strings.get(random.nextInt(strings.size()))), random.nextInt(4) == 0 ? null : random.nextInt(1000));
            }
            map = new GenericMap(entries);
        }
        GenericRow row = null;
        if (id % 10 != 7) {
            row = GenericRow.of(
                    random.nextInt(5) == 0 ? null : random.nextInt(1000),
                    random.nextInt(5) == 0 ? null : BinaryString.fromString(strings.get(random.nextInt(strings.size()))));
        }
        return GenericRow.of(id, ints, texts, map, row);
    }

    // ---------------------------------------------------------------- i. schema evolution

    private static ReferenceTable createAppendEvolved(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = APPEND_EVOLVED;
        String name = descriptor.identifier();
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("a", DataTypes.INT())
                .column("b", DataTypes.STRING())
                .column("c", DataTypes.DOUBLE())
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            Counter ids = new Counter();
            // schema 0: id, a, b, c
            FileStoreTable table = writer.create(name, schema);
            writer.commit(table, evolvedRows(ids, id -> GenericRow.of(id, id * 3, text("b", id), id / 2.0)));
            // schema 1: id, a, b, c, d
            table = writer.alter(name, SchemaChange.addColumn("d", DataTypes.STRING()));
            writer.commit(table, evolvedRows(ids, id -> GenericRow.of(id, id * 3, text("b", id), id / 2.0, text("d", id))));
            // schema 2: id, a, b_renamed, c, d
            table = writer.alter(name, SchemaChange.renameColumn("b", "b_renamed"));
            writer.commit(table, evolvedRows(ids, id -> GenericRow.of(id, id * 3, text("br", id), id / 2.0, text("d", id))));
            // schema 3: id, a, b_renamed, d
            table = writer.alter(name, SchemaChange.dropColumn("c"));
            writer.commit(table, evolvedRows(ids, id -> GenericRow.of(id, id * 3, text("br", id), text("d", id))));
            // schema 4: d, id, a, b_renamed
            table = writer.alter(name, SchemaChange.updateColumnPosition(SchemaChange.Move.first("d")));
            writer.commit(table, evolvedRows(ids, id -> GenericRow.of(text("d", id), id, id * 3, text("br", id))));
            // schema 5: d, id, a BIGINT, b_renamed
            table = writer.alter(name, SchemaChange.updateColumnType("a", DataTypes.BIGINT()));
            writer.commit(table, evolvedRows(ids, id -> GenericRow.of(text("d", id), id, 5_000_000_000L + id, text("br", id))));
        }
        return descriptor;
    }

    private static List<GenericRow> evolvedRows(Counter ids, Function<Integer, GenericRow> factory)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rows.add(factory.apply(ids.next()));
        }
        return rows;
    }

    private static BinaryString text(String prefix, int id)
    {
        return BinaryString.fromString(prefix + id);
    }

    // ---------------------------------------------------------------- j. file indexes

    private static ReferenceTable createAppendFileIndex(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        return createFileIndexTable(warehouse, layout, APPEND_FILE_INDEX, "1 mb");
    }

    private static ReferenceTable createAppendFileIndexFiles(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        return createFileIndexTable(warehouse, layout, APPEND_FILE_INDEX_FILES, "1 b");
    }

    private static ReferenceTable createFileIndexTable(PaimonWarehouse warehouse, ReferenceLayout layout, ReferenceTable descriptor, String inManifestThreshold)
    {
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .column("category", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .option("file-index.bloom-filter.columns", "id,name")
                .option("file-index.bitmap.columns", "category")
                // the default of 1,000,000 expected items makes each Bloom filter ~600 KB
                .option("file-index.bloom-filter.id.items", "200")
                .option("file-index.bloom-filter.name.items", "200")
                .option("file-index.in-manifest-threshold", inManifestThreshold)
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            for (int commit = 0; commit < 3; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    int id = commit * 1000 + i;
                    rows.add(GenericRow.of(
                            id,
                            BinaryString.fromString("name-" + id),
                            i % 11 == 10 ? null : BinaryString.fromString("cat-" + commit + "-" + (i % 4)),
                            (long) id * 7));
                }
                writer.commit(table, rows);
            }
        }
        return descriptor;
    }

    // ---------------------------------------------------------------- k. z-order

    private static ReferenceTable createAppendZorder(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = APPEND_ZORDER;
        Schema schema = Schema.newBuilder()
                .column("x", DataTypes.INT())
                .column("y", DataTypes.INT())
                .column("payload", DataTypes.STRING())
                .build();
        List<int[]> points = new ArrayList<>();
        for (int x = -8; x < 8; x++) {
            for (int y = -8; y < 8; y++) {
                points.add(new int[] {x, y});
            }
        }
        Collections.shuffle(points, new Random(9_009));
        points.sort((left, right) -> Long.compareUnsigned(zValue(left[0], left[1]), zValue(right[0], right[1])));
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            // one commit per 32 consecutive z-values: each file covers a compact 8x4 or 4x8 block
            for (int start = 0; start < points.size(); start += 32) {
                List<GenericRow> rows = new ArrayList<>();
                for (int[] point : points.subList(start, start + 32)) {
                    rows.add(GenericRow.of(point[0], point[1], BinaryString.fromString("p(" + point[0] + "," + point[1] + ")")));
                }
                writer.commit(table, rows);
            }
        }
        return descriptor;
    }

    /**
     * Interleaves the bits of two ints with their sign bits flipped (so that the unsigned order
     * of each is the signed order of the value), most significant bit first, x before y.
     */
    static long zValue(int x, int y)
    {
        long ux = (x ^ 0x8000_0000) & 0xFFFF_FFFFL;
        long uy = (y ^ 0x8000_0000) & 0xFFFF_FFFFL;
        long z = 0;
        for (int bit = 31; bit >= 0; bit--) {
            z = (z << 1) | ((ux >>> bit) & 1);
            z = (z << 1) | ((uy >>> bit) & 1);
        }
        return z;
    }

    // ---------------------------------------------------------------- l. tags, expiration, branches

    private static ReferenceTable createTimeTravel(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        ReferenceTable descriptor = TIME_TRAVEL;
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .column("commit_no", DataTypes.INT())
                .build();
        try (ReferenceTableWriter writer = new ReferenceTableWriter(warehouse, layout)) {
            FileStoreTable table = writer.create(descriptor.identifier(), schema);
            for (int commit = 1; commit <= 5; commit++) {
                writer.commit(table, timeTravelRows(commit, (commit - 1) * 10, 10));
                if (commit == 2) {
                    table.createTag("t_old", 2);
                }
            }
            table.createTag("t_latest", 5);
            // Paimon copies the tagged snapshot into the branch, so branch before that snapshot expires
            table.createBranch("b1", "t_old");
            FileStoreTable branch = writer.table(descriptor.identifier()).switchToBranch("b1");
            writer.commit(branch, timeTravelRows(100, 1000, 5));
            // keep exactly snapshots 4 and 5; t_old keeps the files of snapshot 2 alive
            table.newExpireSnapshots()
                    .config(ExpireConfig.builder()
                            .snapshotRetainMax(2)
                            .snapshotRetainMin(2)
                            .snapshotTimeRetain(Duration.ZERO)
                            .build())
                    .expire();
            Long earliest = table.snapshotManager().earliestSnapshotId();
            if (earliest == null || earliest != 4) {
                throw new IllegalStateException("Expected snapshots 1..3 of " + descriptor.identifier() + " to be expired, but the earliest snapshot is " + earliest);
            }
        }
        return descriptor;
    }

    private static List<GenericRow> timeTravelRows(int commit, int firstId, int count)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int id = firstId; id < firstId + count; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString("c" + commit + "-" + id), commit));
        }
        return rows;
    }

    // ---------------------------------------------------------------- helpers

    private static ReferenceTable appendTable(String name, String description, List<String> partitionKeys, int bucket, long rows, List<String> tags)
    {
        return new ReferenceTable(DATABASE + "." + name, description, List.of(), partitionKeys, bucket, rows, tags, List.of());
    }

    private static String randomString(Random random, int minLength, int maxLength)
    {
        int length = random.nextInt(minLength, maxLength + 1);
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(20);
            if (kind == 0) {
                out.append("\t\n\r\\".charAt(random.nextInt(4)));
            }
            else if (kind == 1) {
                out.append("čšžé日本".charAt(random.nextInt(6)));
            }
            else {
                out.append((char) random.nextInt(' ', '~' + 1));
            }
        }
        // the VARCHAR(20) column must not exceed 20 characters
        return out.length() > maxLength ? out.substring(0, maxLength) : out.toString();
    }

    private static byte[] randomBytes(Random random, int minLength, int maxLength)
    {
        byte[] bytes = new byte[random.nextInt(minLength, maxLength + 1)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static final class Counter
    {
        private int next;

        int next()
        {
            return next++;
        }
    }
}
