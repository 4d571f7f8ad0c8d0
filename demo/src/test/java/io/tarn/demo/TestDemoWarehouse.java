package io.tarn.demo;

import io.tarn.demo.TpchLikeGenerator.LineItem;
import io.tarn.demo.TpchLikeGenerator.Order;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.testing.ReferencePlan;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo warehouse written by Tarn at a tiny scale, read back by Apache Paimon: every row the
 * generator produced, in both snapshots, with the partitioning and index options the demo relies on.
 */
public class TestDemoWarehouse
{
    private static final int ORDERS = 2_000;

    private Path warehouse;
    private final List<String> orderLines = new ArrayList<>();
    private final List<String> lineitemLines = new ArrayList<>();
    private final List<String> firstCommitOrderLines = new ArrayList<>();

    @BeforeClass
    public void writeWarehouse()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-demo-warehouse");
        TpchLikeGenerator generator = new TpchLikeGenerator(ORDERS, TpchLikeGenerator.DEFAULT_SEED);
        new DemoWarehouse(warehouse, generator, message -> {}).write();
        // a second pass of the same seed gives the rows the tables must hold
        generator.generate((order, lines) -> {
            orderLines.add(canonical(order));
            if (order.orderKey() <= ORDERS * 4 / 5) {
                firstCommitOrderLines.add(canonical(order));
            }
            for (LineItem line : lines) {
                lineitemLines.add(canonical(line));
            }
        });
    }

    @AfterClass(alwaysRun = true)
    public void deleteWarehouse()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testPaimonReadsTheOrders()
    {
        assertThat(ReferenceReader.read(warehouse, "tpch.orders").text()).isEqualTo(CanonicalRows.of(orderLines).text());
    }

    @Test
    public void testPaimonReadsTheLineItems()
    {
        assertThat(lineitemLines.size()).isGreaterThan(ORDERS * 3);
        assertThat(ReferenceReader.read(warehouse, "tpch.lineitem").text()).isEqualTo(CanonicalRows.of(lineitemLines).text());
    }

    @Test
    public void testZOrderedCopyHoldsTheSameLineItems()
            throws IOException
    {
        assertThat(ReferenceReader.read(warehouse, "tpch.lineitem_zorder").text()).isEqualTo(CanonicalRows.of(lineitemLines).text());
        // two commits of the filler, then sort-compact's OVERWRITE; the first two expired
        List<ReferenceSnapshot> snapshots = ReferenceTables.snapshots(warehouse, "tpch.lineitem_zorder");
        assertThat(snapshots).hasSize(1);
        assertThat(snapshots.get(0).id()).isEqualTo(3);
        assertThat(snapshots.get(0).commitKind()).isEqualTo("OVERWRITE");
        // the files the sort replaced are deleted: what is left is what Paimon's plan reads
        assertThat(files("lineitem_zorder", ".parquet")).isEqualTo(ReferencePlan.plan(warehouse, "tpch.lineitem_zorder").size());
    }

    @Test
    public void testWriterWroteIndexFiles()
            throws IOException
    {
        // the Bloom filters ask for 100,000 items: far above the in-manifest threshold, so each data file has a .index file
        assertThat(files("orders", ".index")).isEqualTo(files("orders", ".parquet")).isPositive();
        assertThat(files("lineitem", ".index")).isEqualTo(files("lineitem", ".parquet")).isPositive();
    }

    private long files(String table, String suffix)
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(warehouse.resolve("tpch.db").resolve(table))) {
            return paths.filter(path -> path.getFileName().toString().endsWith(suffix)).count();
        }
    }

    @Test
    public void testFirstSnapshotHoldsTheFirstCommit()
    {
        assertThat(ReferenceTables.snapshots(warehouse, "tpch.orders")).hasSize(2);
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of("tpch.orders").atSnapshot(1)).text())
                .isEqualTo(CanonicalRows.of(firstCommitOrderLines).text());
    }

    @Test
    public void testPartitioningAndIndexOptions()
            throws Exception
    {
        FileStoreTable lineitem = paimonTable("tpch.lineitem");
        assertThat(lineitem.partitionKeys()).containsExactly("l_shipyear");
        assertThat(lineitem.options()).containsEntry("file-index.bloom-filter.columns", "l_partkey")
                .containsEntry("file-index.bitmap.columns", "l_shipmode,l_returnflag");
        // order dates 1992..1998-08-02, shipped up to 121 days later
        assertThat(lineitemLines.stream().map(line -> line.substring(line.lastIndexOf('\t') + 1)).distinct().sorted().toList())
                .containsExactly("1992", "1993", "1994", "1995", "1996", "1997", "1998");
        FileStoreTable orders = paimonTable("tpch.orders");
        assertThat(orders.partitionKeys()).isEmpty();
        assertThat(orders.options()).containsEntry("file-index.bloom-filter.columns", "o_custkey");
    }

    private FileStoreTable paimonTable(String name)
            throws Exception
    {
        Options options = new Options();
        options.set("warehouse", warehouse.toString());
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options, new org.apache.hadoop.conf.Configuration()))) {
            return (FileStoreTable) catalog.getTable(Identifier.fromString(name));
        }
    }

    private static String canonical(Order order)
    {
        return String.join("\t",
                Long.toString(order.orderKey()),
                Long.toString(order.custKey()),
                CanonicalValueFormatter.escapeString(order.orderStatus()),
                money(order.totalPriceCents()),
                CanonicalValueFormatter.formatDate(order.orderDate()),
                CanonicalValueFormatter.escapeString(order.orderPriority()),
                CanonicalValueFormatter.escapeString(order.clerk()),
                Integer.toString(order.shipPriority()),
                CanonicalValueFormatter.escapeString(order.comment()));
    }

    private static String canonical(LineItem line)
    {
        return String.join("\t",
                Long.toString(line.orderKey()),
                Long.toString(line.partKey()),
                Long.toString(line.suppKey()),
                Integer.toString(line.lineNumber()),
                money(line.quantityCents()),
                money(line.extendedPriceCents()),
                money(line.discountCents()),
                money(line.taxCents()),
                line.returnFlag(),
                line.lineStatus(),
                CanonicalValueFormatter.formatDate(line.shipDate()),
                CanonicalValueFormatter.formatDate(line.commitDate()),
                CanonicalValueFormatter.formatDate(line.receiptDate()),
                line.shipInstruct(),
                line.shipMode(),
                CanonicalValueFormatter.escapeString(line.comment()),
                Integer.toString(line.shipYear()));
    }

    private static String money(long cents)
    {
        return CanonicalValueFormatter.formatDecimal(BigDecimal.valueOf(cents, 2), 2);
    }
}
