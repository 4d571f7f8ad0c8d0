package io.tarn.storage.read.merge;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.FilterSpec;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.SplitReaders;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static io.tarn.storage.scan.FilterSpec.Op.GE;
import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.Op.LT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Merge-on-read of small primary-key tables written by Apache Paimon with every commit kept as its
 * own level-0 file ({@code write-only}), so reading merges records of several commits: Tarn's rows
 * must equal Paimon's reader's.
 */
public class TestMergeSplitReader
{
    private PaimonTables paimon;
    private RootAllocator allocator;

    @BeforeClass
    public void setUp()
    {
        paimon = new PaimonTables();
        allocator = new RootAllocator();
    }

    @AfterMethod(alwaysRun = true)
    public void checkMemory()
    {
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        allocator.close();
        paimon.close();
    }

    @Test
    public void testDeduplicateWithDeletesAndAllTypes()
            throws Exception
    {
        Schema schema = pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("name", DataTypes.STRING())
                .column("amount", DataTypes.DECIMAL(12, 3))
                .column("ts", DataTypes.TIMESTAMP(6))
                .column("bytes", DataTypes.BYTES())
                .column("tags", DataTypes.ARRAY(DataTypes.INT()))
                .column("attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
                .column("point", DataTypes.ROW(DataTypes.FIELD(10, "x", DataTypes.INT()), DataTypes.FIELD(11, "y", DataTypes.STRING())))
                .primaryKey("id")
                .option("bucket", "2")
                .build();
        FileStoreTable table = paimon.create("dedup", schema);
        List<InternalRow> first = new ArrayList<>();
        for (int id = 0; id < 12; id++) {
            first.add(allTypesRow(RowKind.INSERT, id, "v1-" + id));
        }
        paimon.write(table, first.toArray(InternalRow[]::new));
        paimon.write(table, allTypesRow(RowKind.UPDATE_AFTER, 1, "v2"), allTypesRow(RowKind.DELETE, 2, "gone"), allTypesRow(RowKind.UPDATE_BEFORE, 3, "v1-3"),
                GenericRow.ofKind(RowKind.INSERT, 4, null, null, null, null, null, null, null));
        paimon.write(table, allTypesRow(RowKind.INSERT, 2, "back"), allTypesRow(RowKind.DELETE, 5, "gone"), allTypesRow(RowKind.INSERT, 20, "new"));
        paimon.write(table, allTypesRow(RowKind.DELETE, 20, "gone"), allTypesRow(RowKind.DELETE, 99, "never there"));
        assertReadsLikePaimon("dedup");
    }

    @Test
    public void testDeduplicateIgnoreDelete()
            throws Exception
    {
        // ignore-delete cannot be altered, so the same records go to a table with and one without it
        for (String ignoreDelete : List.of("false", "true")) {
            String name = "dedup_ignore_" + ignoreDelete;
            FileStoreTable table = paimon.create(name, simpleSchema().option("ignore-delete", ignoreDelete).build());
            paimon.write(table, simple(RowKind.INSERT, 1, "a", 10), simple(RowKind.INSERT, 2, "b", 20), simple(RowKind.INSERT, 3, "c", 30));
            paimon.write(table, simple(RowKind.DELETE, 1, "a", 10), simple(RowKind.UPDATE_BEFORE, 2, "b", 20), simple(RowKind.DELETE, 4, "d", 40));
            paimon.write(table, simple(RowKind.UPDATE_AFTER, 2, "b2", 21));
            assertReadsLikePaimon(name);
        }
        assertThat(tarnRows("dedup_ignore_true")).isNotEqualTo(tarnRows("dedup_ignore_false"));
    }

    @Test
    public void testIgnoreDeleteUnderItsOlderSpellings()
            throws Exception
    {
        // Paimon reads deduplicate.ignore-delete and the others when ignore-delete is unset
        for (String key : List.of("deduplicate.ignore-delete", "first-row.ignore-delete", "partial-update.ignore-delete")) {
            String name = "dedup_" + key.replace('.', '_').replace('-', '_');
            FileStoreTable table = paimon.create(name, simpleSchema().option(key, "true").build());
            paimon.write(table, simple(RowKind.INSERT, 1, "a", 10), simple(RowKind.INSERT, 2, "b", 20));
            paimon.write(table, simple(RowKind.DELETE, 1, "a", 10));
            assertReadsLikePaimon(name);
            assertThat(tarnRows(name)).as(key).contains("1\ta\t10", "rows=2 ");
        }
    }

    @Test
    public void testSequenceFieldAscendingAndDescending()
            throws Exception
    {
        for (String order : List.of("ascending", "descending")) {
            String name = "sequence_" + order;
            // Paimon 1.3.1 caches its generated comparators by column types and sort fields but not
            // by sort order: the descending table gets one more column, so it is not handed the
            // ascending table's comparator
            Schema.Builder schema = simpleSchema()
                    .option("sequence.field", "v")
                    .option("sequence.field.sort-order", order);
            if (order.equals("descending")) {
                schema.column("pad", DataTypes.SMALLINT());
            }
            FileStoreTable table = paimon.create(name, schema.build());
            paimon.write(table, sequenced(order, RowKind.INSERT, 1, "first", 5), sequenced(order, RowKind.INSERT, 2, "first", 5), sequenced(order, RowKind.INSERT, 3, "first", null));
            paimon.write(table, sequenced(order, RowKind.INSERT, 1, "lower", 3), sequenced(order, RowKind.INSERT, 2, "higher", 7), sequenced(order, RowKind.INSERT, 3, "second", 1));
            paimon.write(table, sequenced(order, RowKind.INSERT, 1, "equal", 5), sequenced(order, RowKind.DELETE, 2, "delete-low", 1), sequenced(order, RowKind.INSERT, 3, "third", null));
            assertReadsLikePaimon(name);
        }
    }

    private static GenericRow sequenced(String order, RowKind kind, int id, String name, Integer v)
    {
        Long value = v == null ? null : v.longValue();
        return order.equals("descending") ? GenericRow.ofKind(kind, id, str(name), value, null) : GenericRow.ofKind(kind, id, str(name), value);
    }

    @Test
    public void testPartialUpdate()
            throws Exception
    {
        FileStoreTable table = paimon.create("partial", partialSchema().build());
        paimon.write(table, partial(RowKind.INSERT, 1, "a", null, null), partial(RowKind.INSERT, 2, "b", null, null));
        paimon.write(table, partial(RowKind.INSERT, 1, null, 10, null), partial(RowKind.INSERT, 3, null, null, 3.5));
        paimon.write(table, partial(RowKind.INSERT, 1, "a2", null, 1.5), partial(RowKind.INSERT, 2, null, 20, null));
        assertReadsLikePaimon("partial");
    }

    @Test
    public void testPartialUpdateRemoveRecordOnDelete()
            throws Exception
    {
        FileStoreTable table = paimon.create("partial_remove", partialSchema()
                .option("partial-update.remove-record-on-delete", "true")
                .build());
        paimon.write(table, partial(RowKind.INSERT, 1, "a", 1, 1.0), partial(RowKind.INSERT, 2, "b", 2, 2.0), partial(RowKind.INSERT, 3, "c", 3, 3.0));
        paimon.write(table, partial(RowKind.DELETE, 1, null, null, null), partial(RowKind.DELETE, 2, null, null, null), partial(RowKind.UPDATE_BEFORE, 3, "c", 3, 3.0));
        // after the delete, key 2 starts over: only the new non-null value is left
        paimon.write(table, partial(RowKind.INSERT, 2, null, 22, null));
        assertReadsLikePaimon("partial_remove");
    }

    @Test
    public void testPartialUpdateIgnoreDelete()
            throws Exception
    {
        for (String ignoreDelete : List.of("false", "true")) {
            FileStoreTable table = paimon.create("partial_ignore_" + ignoreDelete, partialSchema().option("ignore-delete", ignoreDelete).build());
            paimon.write(table, partial(RowKind.INSERT, 1, "a", 1, null), partial(RowKind.INSERT, 2, "b", 2, null));
            paimon.write(table, partial(RowKind.DELETE, 1, "a", 1, null), partial(RowKind.DELETE, 5, "x", 5, null));
            paimon.write(table, partial(RowKind.INSERT, 2, null, null, 2.5), partial(RowKind.UPDATE_BEFORE, 6, "y", 6, null));
        }
        // without the option Paimon's reader refuses the deletes
        assertThatThrownBy(() -> paimonRows("partial_ignore_false")).hasStackTraceContaining("Partial update can not accept delete records");
        assertThatThrownBy(() -> tarnRows("partial_ignore_false"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.partial_ignore_false")
                .hasMessageContaining("partial-update");
        assertReadsLikePaimon("partial_ignore_true");
    }

    @Test
    public void testPartialUpdateSequenceGroups()
            throws Exception
    {
        // two groups: (a, b) follow g1; (c, total) follow the pair g2a, g2b, with total summed
        FileStoreTable table = paimon.create("sequence_groups", sequenceGroupSchema().build());
        paimon.write(table,
                grouped(RowKind.INSERT, 1, "a1", 1, 10, "c1", 5L, 1, 1L, 0.5),
                grouped(RowKind.INSERT, 2, "a1", 1, 10, "c1", 5L, 1, 1L, null),
                grouped(RowKind.INSERT, 3, "a1", 1, 10, "c1", 5L, 1, 1L, 1.0));
        // key 1: g1 older (a, b kept), g2 newer by its second column; key 2: g2 all null (untouched)
        paimon.write(table,
                grouped(RowKind.INSERT, 1, "stale", 9, 5, "c2", 7L, 1, 2L, null),
                grouped(RowKind.INSERT, 2, "a2", null, 11, "ignored", 100L, null, null, 2.5),
                grouped(RowKind.INSERT, 4, null, null, null, "c4", 1L, 3, 3L, null));
        // an older g2 still folds into the sum; a retraction of g1 clears a and b of key 3
        paimon.write(table,
                grouped(RowKind.INSERT, 1, "a3", 3, 20, "old", 100L, 0, 9L, 3.5),
                grouped(RowKind.DELETE, 3, "x", 1, 12, null, null, null, null, null),
                grouped(RowKind.UPDATE_BEFORE, 2, null, null, null, "c1", 5L, 1, 1L, null));
        assertReadsLikePaimon("sequence_groups");

        FileStoreTable removing = paimon.create("sequence_groups_remove", sequenceGroupSchema()
                .option("partial-update.remove-record-on-sequence-group", "g1")
                .build());
        paimon.write(removing,
                grouped(RowKind.INSERT, 1, "a1", 1, 10, "c1", 5L, 1, 1L, 0.5),
                grouped(RowKind.INSERT, 2, "a1", 1, 10, "c1", 5L, 1, 1L, null));
        paimon.write(removing,
                grouped(RowKind.DELETE, 1, "a1", 1, 11, null, null, null, null, null),
                grouped(RowKind.DELETE, 2, "a1", 1, 9, null, null, null, null, null));
        assertReadsLikePaimon("sequence_groups_remove");
    }

    @Test
    public void testCollectionAggregates()
            throws Exception
    {
        Schema schema = pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("tags", DataTypes.ARRAY(DataTypes.STRING()))
                .column("tag_set", DataTypes.ARRAY(DataTypes.STRING()))
                .column("numbers", DataTypes.ARRAY(DataTypes.INT()))
                .column("attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
                .column("by_day", DataTypes.MAP(DataTypes.INT(), DataTypes.STRING()))
                .column("events", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(20, "k", DataTypes.STRING()), DataTypes.FIELD(21, "v", DataTypes.INT()))))
                .column("log", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(22, "k", DataTypes.STRING()), DataTypes.FIELD(23, "v", DataTypes.INT()))))
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.tags.aggregate-function", "collect")
                .option("fields.tag_set.aggregate-function", "collect")
                .option("fields.tag_set.distinct", "true")
                .option("fields.numbers.aggregate-function", "collect")
                .option("fields.numbers.distinct", "true")
                .option("fields.attrs.aggregate-function", "merge_map")
                .option("fields.by_day.aggregate-function", "merge_map")
                .option("fields.events.aggregate-function", "nested_update")
                .option("fields.events.nested-key", "k")
                .option("fields.log.aggregate-function", "nested_update")
                .option("fields.log.count-limit", "4")
                .build();
        FileStoreTable table = paimon.create("collections", schema);
        List<String> words = List.of("kiwi", "apple", "fig", "banana", "cherry", "date", "elderberry", "grape", "lemon", "mango", "nectarine", "olive",
                "papaya", "quince", "raspberry", "strawberry", "tangerine", "ugli", "vanilla", "watermelon");
        for (int commit = 0; commit < 4; commit++) {
            List<InternalRow> rows = new ArrayList<>();
            for (int id = 0; id < 3; id++) {
                List<String> picked = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    picked.add(words.get((commit * 7 + id * 3 + i * 5) % words.size()));
                }
                Map<Object, Object> attrs = new java.util.HashMap<>();
                Map<Object, Object> byDay = new java.util.HashMap<>();
                for (int i = 0; i < 5; i++) {
                    attrs.put(str(picked.get(i)), commit * 10 + i);
                    byDay.put(commit * 37 - i * 1000 + id, str("d" + commit + i));
                }
                Object[] events = new Object[3];
                for (int i = 0; i < 3; i++) {
                    events[i] = GenericRow.of(str(picked.get(i)), commit * 100 + i);
                }
                rows.add(GenericRow.of(id,
                        stringArray(picked.subList(0, 3)),
                        stringArray(picked),
                        new GenericArray(new Object[] {commit * 3 - id, 1000 + commit, -5, commit * 3 - id}),
                        new GenericMap(attrs),
                        id == 2 && commit == 1 ? null : new GenericMap(byDay),
                        new GenericArray(events),
                        new GenericArray(new Object[] {GenericRow.of(str("c" + commit), id), null, GenericRow.of(str("x"), commit)})));
            }
            paimon.write(table, rows.toArray(InternalRow[]::new));
        }
        assertReadsLikePaimon("collections");
    }

    @Test
    public void testAggregateFunctions()
            throws Exception
    {
        Schema schema = pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("f_sum", DataTypes.INT())
                .column("f_sum_decimal", DataTypes.DECIMAL(10, 2))
                .column("f_product", DataTypes.BIGINT())
                .column("f_max", DataTypes.STRING())
                .column("f_min", DataTypes.DATE())
                .column("f_last", DataTypes.INT())
                .column("f_last_non_null", DataTypes.INT())
                .column("f_first", DataTypes.INT())
                .column("f_first_non_null", DataTypes.INT())
                .column("f_listagg", DataTypes.STRING())
                .column("f_listagg_pipe", DataTypes.STRING())
                .column("f_and", DataTypes.BOOLEAN())
                .column("f_or", DataTypes.BOOLEAN())
                .column("f_default", DataTypes.DOUBLE())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.f_sum.aggregate-function", "sum")
                .option("fields.f_sum_decimal.aggregate-function", "sum")
                .option("fields.f_product.aggregate-function", "product")
                .option("fields.f_max.aggregate-function", "max")
                .option("fields.f_min.aggregate-function", "min")
                .option("fields.f_last.aggregate-function", "last_value")
                .option("fields.f_last_non_null.aggregate-function", "last_non_null_value")
                .option("fields.f_first.aggregate-function", "first_value")
                .option("fields.f_first_non_null.aggregate-function", "first_non_null_value")
                .option("fields.f_listagg.aggregate-function", "listagg")
                .option("fields.f_listagg_pipe.aggregate-function", "listagg")
                .option("fields.f_listagg_pipe.list-agg-delimiter", "|")
                .option("fields.f_and.aggregate-function", "bool_and")
                .option("fields.f_or.aggregate-function", "bool_or")
                .option("fields.default-aggregate-function", "max")
                .build();
        FileStoreTable table = paimon.create("aggregation", schema);
        paimon.write(table, aggRow(1, 1, "1.50", 2L, "b", 100, 1, 1, null, null, "x", "x", true, false, 1.0), aggRow(2, null, null, null, null, null, null, null, null, null, null, null, null, null, null));
        paimon.write(table, aggRow(1, 2, "2.25", 3L, "a", 50, null, null, 7, 7, "y", "y", false, false, null), aggRow(2, 5, "0.01", 4L, "z", 10, 2, 2, 2, 2, null, "p", null, true, -1.0));
        paimon.write(table, aggRow(1, null, "-1.00", null, "c", null, 3, null, 8, 8, null, "z", true, true, 0.5), aggRow(3, 9, "9.99", 9L, "q", 9, 9, 9, 9, 9, "q", "q", true, true, 9.0));
        paimon.write(table, aggRow(2, 1, "1.00", 2L, "y", 20, null, null, 3, 3, "s", null, false, null, 5.0));
        assertReadsLikePaimon("aggregation");
    }

    @Test
    public void testAggregateRetractions()
            throws Exception
    {
        Schema schema = pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("f_sum", DataTypes.BIGINT())
                .column("f_product", DataTypes.DOUBLE())
                .column("f_last", DataTypes.STRING())
                .column("f_last_non_null", DataTypes.STRING())
                .column("f_max", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.f_sum.aggregate-function", "sum")
                .option("fields.f_product.aggregate-function", "product")
                .option("fields.f_last.aggregate-function", "last_value")
                .option("fields.f_max.aggregate-function", "max")
                .option("fields.f_max.ignore-retract", "true")
                .build();
        FileStoreTable table = paimon.create("aggregation_retract", schema);
        paimon.write(table, retractRow(RowKind.INSERT, 1, 10L, 8.0, "a", "a", 5), retractRow(RowKind.INSERT, 2, 20L, 3.0, "b", "b", 6), retractRow(RowKind.INSERT, 3, 1L, 1.0, "c", "c", 1));
        paimon.write(table, retractRow(RowKind.UPDATE_BEFORE, 1, 4L, 2.0, "a", "a", 50), retractRow(RowKind.DELETE, 2, null, null, null, null, null), retractRow(RowKind.DELETE, 4, 7L, 2.0, "d", "d", 7));
        paimon.write(table, retractRow(RowKind.UPDATE_AFTER, 1, 1L, 5.0, null, null, 1), retractRow(RowKind.DELETE, 3, 1L, 1.0, "c", "c", 1));
        assertReadsLikePaimon("aggregation_retract");
    }

    @Test
    public void testAggregateRemoveRecordOnDelete()
            throws Exception
    {
        Schema schema = pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("total", DataTypes.BIGINT())
                .column("label", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("aggregation.remove-record-on-delete", "true")
                .option("fields.total.aggregate-function", "sum")
                .build();
        FileStoreTable table = paimon.create("aggregation_remove", schema);
        paimon.write(table, GenericRow.of(1, 10L, str("a")), GenericRow.of(2, 20L, str("b")), GenericRow.of(3, 30L, str("c")));
        paimon.write(table, GenericRow.ofKind(RowKind.DELETE, 1, 10L, str("a")), GenericRow.ofKind(RowKind.DELETE, 2, 0L, null), GenericRow.ofKind(RowKind.UPDATE_BEFORE, 3, 5L, str("c")));
        paimon.write(table, GenericRow.of(2, 7L, null));
        assertReadsLikePaimon("aggregation_remove");
    }

    @Test
    public void testSchemaChangeBetweenCommits()
            throws Exception
    {
        FileStoreTable table = paimon.create("evolved", simpleSchema().build());
        paimon.write(table, simple(RowKind.INSERT, 1, "a", 1), simple(RowKind.INSERT, 2, "b", 2), simple(RowKind.INSERT, 3, "c", 3));
        alter("evolved", SchemaChange.addColumn("extra", DataTypes.STRING()));
        alter("evolved", SchemaChange.renameColumn("name", "label"));
        table = paimon.table("evolved");
        paimon.write(table, GenericRow.of(2, str("b2"), 22L, str("e2")), GenericRow.ofKind(RowKind.DELETE, 3, str("c"), 3L, null), GenericRow.of(4, str("d"), 4L, str("e4")));
        alter("evolved", SchemaChange.dropColumn("v"));
        table = paimon.table("evolved");
        paimon.write(table, GenericRow.of(1, str("a1"), null));
        assertReadsLikePaimon("evolved");
    }

    @Test
    public void testCompositeKeyPartitionsThinModeAndFilters()
            throws Exception
    {
        for (String thinMode : List.of("false", "true")) {
            String name = "composite_thin_" + thinMode;
            FileStoreTable table = paimon.create(name, pkSchema()
                    .column("dt", DataTypes.STRING().notNull())
                    .column("k1", DataTypes.STRING().notNull())
                    .column("k2", DataTypes.INT().notNull())
                    .column("v", DataTypes.BIGINT())
                    .primaryKey("dt", "k1", "k2")
                    .partitionKeys("dt")
                    .option("bucket", "2")
                    .option("data-file.thin-mode", thinMode)
                    .build());
            List<InternalRow> rows = new ArrayList<>();
            for (String dt : List.of("d1", "d2")) {
                for (int i = 0; i < 10; i++) {
                    rows.add(GenericRow.of(str(dt), str(i % 2 == 0 ? "日本" : "a"), i, (long) i));
                }
            }
            paimon.write(table, rows.toArray(InternalRow[]::new));
            // raise low values above the filter's bound and lower high ones below it: the filter
            // must see the merged rows, not any older version
            paimon.write(table, GenericRow.of(str("d1"), str("日本"), 0, 100L), GenericRow.of(str("d1"), str("a"), 9, 1L), GenericRow.of(str("d2"), str("a"), 1, 50L));
            paimon.write(table, GenericRow.ofKind(RowKind.DELETE, str("d2"), str("日本"), 8, 8L), GenericRow.of(str("d2"), str("a"), 1, 2L));
            assertReadsLikePaimon(name);
            // the footer names the columns: thin mode leaves the _KEY_ columns out
            assertThat(dataFilesMention(name, "_KEY_k1")).isEqualTo(thinMode.equals("false"));
            for (FilterSpec filter : List.of(
                    FilterSpec.compare("v", GT, 5L),
                    FilterSpec.compare("k2", LT, 3),
                    FilterSpec.and(FilterSpec.compare("k1", EQ, "a"), FilterSpec.compare("v", LT, 5L)),
                    FilterSpec.and(FilterSpec.compare("dt", EQ, "d2"), FilterSpec.compare("k2", GE, 8)))) {
                assertThat(tarnRows(name, Optional.of(filter))).as("%s WHERE %s", name, filter).isEqualTo(paimonRows(name, Optional.of(filter)));
            }
        }
    }

    @Test
    public void testOpenMergesSplitsThatNeedMerging()
            throws Exception
    {
        FileStoreTable table = paimon.create("opened", simpleSchema().build());
        paimon.write(table, simple(RowKind.INSERT, 1, "a", 1));
        paimon.write(table, simple(RowKind.INSERT, 1, "b", 2));
        PaimonTable tarn = tarnTable("opened");
        ScanPlan plan = new ScanPlanner(tarn).plan(tarn.snapshot(new ScanVersion.Latest()));
        DataSplit split = plan.splits().stream().filter(DataSplit::mergeRequired).findFirst().orElseThrow();
        ReadRequest request = ReadRequest.of(plan.readSchema().fields());
        List<String> lines = new ArrayList<>();
        try (SplitReader reader = SplitReaders.open(tarn, plan.readSchema(), split, request, allocator)) {
            while (reader.nextBatch()) {
                CanonicalRowFormatter.appendLines(reader.root(), request.columns(), lines);
            }
        }
        // read as it lies, the split would give both versions of key 1
        assertThat(lines).hasSize(1);
        assertReadsLikePaimon("opened");
        assertThat(allocator.getChildAllocators()).as("child allocators left open").isEmpty();
    }

    @Test
    public void testRawFileReadDropsRetractionsOnlyWhereTheFileCountsSome()
            throws Exception
    {
        FileStoreTable table = paimon.create("raw_kinds", simpleSchema().build());
        paimon.write(table, simple(RowKind.INSERT, 1, "a", 1), simple(RowKind.INSERT, 2, "b", 2), simple(RowKind.INSERT, 3, "c", 3));
        // one retraction: its file counts one -U/-D row, the least that makes reading _VALUE_KIND necessary
        paimon.write(table, simple(RowKind.INSERT, 4, "d", 4), simple(RowKind.DELETE, 2, "b", 2));
        PaimonTable tarn = tarnTable("raw_kinds");
        ScanPlan plan = new ScanPlanner(tarn).plan(tarn.snapshot(new ScanVersion.Latest()));
        DataSplit split = plan.splits().stream().filter(DataSplit::mergeRequired).findFirst().orElseThrow();
        List<PlannedFile> files = filesInCommitOrder(split);
        assertThat(files).hasSize(2);
        assertThat(files.get(0).file().deleteRowCount()).hasValue(0);
        assertThat(files.get(1).file().deleteRowCount()).hasValue(1);
        // each file read raw, as a deletion-vector split reads a file: its live rows, by hand
        assertThat(rawIds(tarn, plan, split, files.get(0))).containsExactly("1", "2", "3");
        assertThat(rawIds(tarn, plan, split, files.get(1))).containsExactly("4");
    }

    @Test
    public void testFilesWithDisjointKeyRangesSkipTheMerge()
            throws Exception
    {
        // an integral key (compared as a long) and a string key (compared boxed)
        for (boolean stringKey : List.of(false, true)) {
            String name = "disjoint_" + (stringKey ? "string" : "int");
            Schema.Builder schema = pkSchema()
                    .column("id", stringKey ? DataTypes.STRING().notNull() : DataTypes.INT().notNull())
                    .column("name", DataTypes.STRING())
                    .column("v", DataTypes.BIGINT())
                    .primaryKey("id")
                    .option("bucket", "1");
            FileStoreTable table = paimon.create(name, schema.build());
            paimon.write(table, keyed(stringKey, RowKind.INSERT, 1, "a1", 1), keyed(stringKey, RowKind.INSERT, 2, "a2", 1), keyed(stringKey, RowKind.INSERT, 3, "a3", 1));
            // shares only key 3 with the first file: the two ranges overlap and must be merged
            paimon.write(table, keyed(stringKey, RowKind.INSERT, 3, "b3", 2), keyed(stringKey, RowKind.INSERT, 4, "b4", 2), keyed(stringKey, RowKind.INSERT, 5, "b5", 2));
            // overlaps nothing and holds no retraction: every row survives, the file is not opened for keys
            paimon.write(table, keyed(stringKey, RowKind.INSERT, 10, "c10", 3), keyed(stringKey, RowKind.INSERT, 11, "c11", 3));
            // overlaps nothing but holds a retraction (of a key never written): still merged
            paimon.write(table, keyed(stringKey, RowKind.INSERT, 20, "d20", 4), keyed(stringKey, RowKind.DELETE, 21, "d21", 4));
            assertReadsLikePaimon(name);

            PaimonTable tarn = tarnTable(name);
            ScanPlan plan = new ScanPlanner(tarn).plan(tarn.snapshot(new ScanVersion.Latest()));
            DataSplit split = plan.splits().stream().filter(DataSplit::mergeRequired).findFirst().orElseThrow();
            List<PlannedFile> files = filesInCommitOrder(split);
            assertThat(files).hasSize(4);
            SurvivorSelector.Survivors survivors = SurvivorSelector.select(tarn, plan.readSchema(), split, allocator);
            assertThat(survivors.filesNotOpened()).as(name).isEqualTo(1);
            Map<String, RoaringBitmap> rows = survivors.rowsByFile();
            assertThat(rows.get(files.get(0).file().fileName()).toArray()).as(name).containsExactly(0, 1);
            assertThat(rows.get(files.get(1).file().fileName()).toArray()).as(name).containsExactly(0, 1, 2);
            assertThat(rows.get(files.get(2).file().fileName()).toArray()).as(name).containsExactly(0, 1);
            assertThat(rows.get(files.get(3).file().fileName()).toArray()).as(name).containsExactly(0);
        }
    }

    @Test
    public void testManyKeysAcrossBatches()
            throws Exception
    {
        // more rows than one batch of the survivor selection, a BIGINT key, runs of single-record
        // keys broken by keys in several files, at every distance from a batch boundary
        FileStoreTable table = paimon.create("many_keys", pkSchema()
                .column("id", DataTypes.BIGINT().notNull())
                .column("name", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        int keys = 10_000;
        List<InternalRow> base = new ArrayList<>();
        for (long id = 0; id < keys; id++) {
            base.add(GenericRow.of(id, str("base-" + id), id));
        }
        paimon.write(table, base.toArray(InternalRow[]::new));
        List<InternalRow> updates = new ArrayList<>();
        for (long id = 0; id < keys + 50; id += 7) {
            updates.add(GenericRow.of(id, str("update-" + id), -id));
        }
        paimon.write(table, updates.toArray(InternalRow[]::new));
        List<InternalRow> deletes = new ArrayList<>();
        for (long id = 3; id < keys; id += 11) {
            deletes.add(GenericRow.ofKind(RowKind.DELETE, id, str("base-" + id), id));
        }
        deletes.add(GenericRow.of(4095L, str("again-4095"), 1L));
        deletes.add(GenericRow.of(4096L, str("again-4096"), 1L));
        paimon.write(table, deletes.toArray(InternalRow[]::new));
        assertReadsLikePaimon("many_keys");
    }

    private List<String> rawIds(PaimonTable tarn, ScanPlan plan, DataSplit split, PlannedFile file)
            throws IOException
    {
        DataSplit raw = new DataSplit(split.partition(), split.bucket(), split.totalBuckets(), List.of(file), false);
        ReadRequest request = ReadRequest.of(plan.readSchema().fields()).withBatchSize(2);
        List<String> ids = new ArrayList<>();
        try (SplitReader reader = SplitReaders.open(tarn, plan.readSchema(), raw, request, allocator)) {
            while (reader.nextBatch()) {
                List<String> lines = new ArrayList<>();
                CanonicalRowFormatter.appendLines(reader.root(), request.columns(), lines);
                lines.forEach(line -> ids.add(line.split("\t", -1)[0]));
            }
        }
        return ids;
    }

    private static List<PlannedFile> filesInCommitOrder(DataSplit split)
    {
        return split.files().stream()
                .sorted(Comparator.comparingLong(file -> file.file().minSequenceNumber()))
                .toList();
    }

    private static GenericRow keyed(boolean stringKey, RowKind kind, int id, String name, long v)
    {
        // zero-padded so that string keys sort like the numbers
        Object key = stringKey ? str("k%03d".formatted(id)) : id;
        return GenericRow.ofKind(kind, key, str(name), v);
    }

    @Test
    public void testProjectionWithFilterOnUnreadColumn()
            throws Exception
    {
        FileStoreTable table = paimon.create("projection", simpleSchema().build());
        paimon.write(table, simple(RowKind.INSERT, 1, "keep", 10), simple(RowKind.INSERT, 2, "drop", 20), simple(RowKind.INSERT, 3, "keep", 30));
        paimon.write(table, simple(RowKind.INSERT, 1, "drop", 11), simple(RowKind.INSERT, 2, "keep", 21), simple(RowKind.DELETE, 3, "keep", 30));
        FilterSpec filter = FilterSpec.compare("name", EQ, "keep");
        // Paimon's rows are id, name, v: the projection reads v, id
        List<String> expected = new ArrayList<>();
        for (String line : CanonicalRowSet.of(List.of(paimonRows("projection", Optional.of(filter)).split("\n"))).lines()) {
            if (line.startsWith("rows=")) {
                continue;
            }
            String[] values = line.split("\t", -1);
            expected.add(values[2] + "\t" + values[0]);
        }
        assertThat(expected).hasSize(1);

        PaimonTable tarn = tarnTable("projection");
        ScanPlan plan = new ScanPlanner(tarn).plan(tarn.snapshot(new ScanVersion.Latest()));
        List<io.tarn.types.DataField> columns = List.of(plan.readSchema().fields().get(2), plan.readSchema().fields().get(0));
        ReadRequest request = ReadRequest.of(columns).withFilter(filter.tarn(plan.readSchema()));
        List<String> lines = new ArrayList<>();
        Counters metrics = TableRead.forEachBatch(tarn, plan, request, allocator, batch -> CanonicalRowFormatter.appendLines(batch, columns, lines));
        assertThat(CanonicalRowSet.of(lines).text()).isEqualTo(CanonicalRowSet.of(expected).text());
        assertThat(metrics.get(Counter.ROWS_RETURNED)).isEqualTo(1);
        assertThat(metrics.get(Counter.ROWS_FILTERED)).isEqualTo(1);
        assertThat(metrics.get(Counter.FILES_READ)).isEqualTo(2);
    }

    @Test
    public void testUnsupportedFeaturesFailClearly()
            throws Exception
    {
        FileStoreTable sketch = paimon.create("sketch", pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("bitmap", DataTypes.BYTES())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.bitmap.aggregate-function", "rbm32")
                .build());
        paimon.write(sketch, GenericRow.of(1, new byte[] {1}));
        paimon.write(sketch, GenericRow.of(1, new byte[] {2}));
        assertThatThrownBy(() -> tarnRows("sketch"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.sketch")
                .hasMessageContaining("'rbm32'")
                .hasMessageContaining("'bitmap'");

        FileStoreTable maxRetract = paimon.create("max_retract", pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("m", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.m.aggregate-function", "max")
                .build());
        paimon.write(maxRetract, GenericRow.of(1, 5));
        paimon.write(maxRetract, GenericRow.ofKind(RowKind.DELETE, 1, 5));
        assertThatThrownBy(() -> paimonRows("max_retract")).hasStackTraceContaining("does not support retraction");
        assertThatThrownBy(() -> tarnRows("max_retract"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.max_retract")
                .hasMessageContaining("'max'")
                .hasMessageContaining("retraction");
    }

    private void assertReadsLikePaimon(String table)
            throws IOException
    {
        assertThat(mergeSplits(table)).as("%s has splits that need merging", table).isPositive();
        assertThat(tarnRows(table)).as(table).isEqualTo(paimonRows(table));
    }

    private boolean dataFilesMention(String table, String text)
            throws IOException
    {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(Path.of(paimon.tableRoot(table)))) {
            for (Path file : files.filter(path -> path.getFileName().toString().endsWith(".parquet")).toList()) {
                byte[] bytes = Files.readAllBytes(file);
                for (int i = 0; i + needle.length <= bytes.length; i++) {
                    if (Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private String paimonRows(String table)
    {
        return paimonRows(table, Optional.empty());
    }

    private String paimonRows(String table, Optional<FilterSpec> filter)
    {
        Path warehouse = Path.of(paimon.warehouse());
        ReferenceScan scan = ReferenceScan.of("db." + table);
        if (filter.isPresent()) {
            scan = scan.withFilter(filter.get().paimon(ReferenceReader.rowType(warehouse, scan)));
        }
        return ReferenceReader.read(warehouse, scan).text();
    }

    private PaimonTable tarnTable(String table)
            throws IOException
    {
        FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), paimon.warehouse());
        return PaimonTable.load(catalog, Identifier.parse("db." + table));
    }

    private long mergeSplits(String table)
            throws IOException
    {
        PaimonTable tarn = tarnTable(table);
        ScanPlan plan = new ScanPlanner(tarn).plan(tarn.snapshot(new ScanVersion.Latest()));
        return plan.splits().stream().filter(DataSplit::mergeRequired).count();
    }

    private String tarnRows(String table)
            throws IOException
    {
        return tarnRows(table, Optional.empty());
    }

    private String tarnRows(String table, Optional<FilterSpec> filter)
            throws IOException
    {
        PaimonTable tarn = tarnTable(table);
        ScanPlanner planner = new ScanPlanner(tarn);
        if (filter.isPresent()) {
            planner = planner.withFilter(filter.get().tarn(tarn.schema()));
        }
        ScanPlan plan = planner.plan(tarn.snapshot(new ScanVersion.Latest()));
        ReadRequest unfiltered = ReadRequest.of(plan.readSchema().fields()).withBatchSize(2);
        ReadRequest request = filter.isPresent() ? unfiltered.withFilter(filter.get().tarn(plan.readSchema())) : unfiltered;
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(tarn, plan, request, allocator, batch -> CanonicalRowFormatter.appendLines(batch, request.columns(), lines));
        return CanonicalRowSet.of(lines).text();
    }

    private void alter(String table, SchemaChange change)
            throws Exception
    {
        paimon.catalog().alterTable(org.apache.paimon.catalog.Identifier.create("db", table), change, false);
    }

    private static Schema.Builder pkSchema()
    {
        return Schema.newBuilder().option("write-only", "true");
    }

    private static Schema.Builder simpleSchema()
    {
        return pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("name", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1");
    }

    private static Schema.Builder partialSchema()
    {
        return pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .column("c", DataTypes.DOUBLE())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "partial-update");
    }

    private static GenericRow simple(RowKind kind, int id, String name, Integer v)
    {
        return GenericRow.ofKind(kind, id, str(name), v == null ? null : v.longValue());
    }

    private static Schema.Builder sequenceGroupSchema()
    {
        return pkSchema()
                .column("id", DataTypes.INT().notNull())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .column("g1", DataTypes.INT())
                .column("c", DataTypes.STRING())
                .column("total", DataTypes.BIGINT())
                .column("g2a", DataTypes.INT())
                .column("g2b", DataTypes.BIGINT())
                .column("free", DataTypes.DOUBLE())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .option("fields.g1.sequence-group", "a,b")
                .option("fields.g2a,g2b.sequence-group", "c,total")
                .option("fields.total.aggregate-function", "sum");
    }

    private static GenericRow grouped(RowKind kind, int id, String a, Integer b, Integer g1, String c, Long total, Integer g2a, Long g2b, Double free)
    {
        return GenericRow.ofKind(kind, id, str(a), b, g1, str(c), total, g2a, g2b, free);
    }

    private static GenericArray stringArray(List<String> values)
    {
        return new GenericArray(values.stream().map(BinaryString::fromString).toArray());
    }

    private static GenericRow partial(RowKind kind, int id, String a, Integer b, Double c)
    {
        return GenericRow.ofKind(kind, id, str(a), b, c);
    }

    private static GenericRow allTypesRow(RowKind kind, int id, String name)
    {
        return GenericRow.ofKind(kind, id, str(name),
                Decimal.fromBigDecimal(new BigDecimal(id + ".125"), 12, 3),
                Timestamp.fromEpochMillis(1_700_000_000_000L + id, 123_000),
                new byte[] {(byte) id, (byte) 0xff},
                new GenericArray(new Object[] {id, null, id * 2}),
                new GenericMap(Map.of(str("k" + id), id)),
                GenericRow.of(id, str(name)));
    }

    private static GenericRow aggRow(int id, Integer sum, String sumDecimal, Long product, String max, Integer minDay, Integer last, Integer lastNonNull,
            Integer first, Integer firstNonNull, String listagg, String listaggPipe, Boolean and, Boolean or, Double defaultMax)
    {
        return GenericRow.of(id, sum, sumDecimal == null ? null : Decimal.fromBigDecimal(new BigDecimal(sumDecimal), 10, 2), product, str(max), minDay,
                last, lastNonNull, first, firstNonNull, str(listagg), str(listaggPipe), and, or, defaultMax);
    }

    private static GenericRow retractRow(RowKind kind, int id, Long sum, Double product, String last, String lastNonNull, Integer max)
    {
        return GenericRow.ofKind(kind, id, sum, product, str(last), str(lastNonNull), max);
    }

    private static BinaryString str(String value)
    {
        return value == null ? null : BinaryString.fromString(value);
    }
}
