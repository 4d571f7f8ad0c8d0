package io.tarn.testing;

import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.system.RowTrackingTable;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads a table with Apache Paimon's own reader and returns its {@link CanonicalRows}: the oracle
 * every Tarn read is compared with.
 *
 * <p>A filter is given to Paimon (which may use it only to skip files) and then applied to every
 * row read, so the result is exactly the rows matching the predicate. Primary-key tables give
 * their merged live rows; the row kind is not part of the output.
 */
public final class ReferenceReader
{
    private ReferenceReader() {}

    public static CanonicalRows read(Path warehouse, String table)
    {
        return read(warehouse, ReferenceScan.of(table));
    }

    public static CanonicalRows read(Path warehouse, ReferenceScan scan)
    {
        requireNonNull(warehouse, "warehouse is null");
        return read(PaimonWarehouse.local(warehouse), scan);
    }

    public static CanonicalRows read(PaimonWarehouse warehouse, ReferenceScan scan)
    {
        FileStoreTable table = resolve(warehouse, scan);
        RowType rowType = table.rowType();
        ReadBuilder readBuilder = table.newReadBuilder();
        scan.filter().ifPresent(readBuilder::withFilter);
        Optional<Predicate> filter = scan.filter();
        List<String> lines = new ArrayList<>();
        try {
            List<Split> splits = readBuilder.newScan().plan().splits();
            try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(splits)) {
                // rows are reused views over the reader's buffers: format each before the next one
                reader.forEachRemaining(row -> {
                    if (filter.isEmpty() || filter.get().test(row)) {
                        lines.add(CanonicalValueFormatter.formatRow(row, rowType));
                    }
                });
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Paimon failed to read " + scan.table() + " at " + scan.version(), e);
        }
        return CanonicalRows.of(lines);
    }

    /**
     * The rows of Paimon's row-tracking view of a table that tracks rows
     * ({@code row-tracking.enabled}): its columns, then {@code _ROW_ID} and
     * {@code _SEQUENCE_NUMBER}.
     */
    public static CanonicalRows readWithRowTracking(Path warehouse, String table)
    {
        RowTrackingTable rowTracking = new RowTrackingTable(ReferenceCatalog.load(warehouse, table));
        ReadBuilder readBuilder = rowTracking.newReadBuilder();
        List<String> lines = new ArrayList<>();
        try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(readBuilder.newScan().plan())) {
            reader.forEachRemaining(row -> lines.add(CanonicalValueFormatter.formatRow(row, rowTracking.rowType())));
        }
        catch (IOException e) {
            throw new UncheckedIOException("Paimon failed to read " + table + " with row tracking", e);
        }
        return CanonicalRows.of(lines);
    }

    /**
     * The row type of the table version the scan reads (time travel reads the schema of the
     * snapshot it selects); predicates for {@link ReferenceScan#withFilter} use its field positions.
     */
    public static RowType rowType(Path warehouse, ReferenceScan scan)
    {
        requireNonNull(warehouse, "warehouse is null");
        return rowType(PaimonWarehouse.local(warehouse), scan);
    }

    public static RowType rowType(PaimonWarehouse warehouse, ReferenceScan scan)
    {
        return resolve(warehouse, scan).rowType();
    }

    public static PredicateBuilder predicateBuilder(Path warehouse, ReferenceScan scan)
    {
        return new PredicateBuilder(rowType(warehouse, scan));
    }

    static FileStoreTable resolve(Path warehouse, ReferenceScan scan)
    {
        requireNonNull(warehouse, "warehouse is null");
        return resolve(PaimonWarehouse.local(warehouse), scan);
    }

    static FileStoreTable resolve(PaimonWarehouse warehouse, ReferenceScan scan)
    {
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(scan, "scan is null");
        FileStoreTable table = ReferenceCatalog.load(warehouse, scan.table());
        if (scan.branch().isPresent()) {
            table = table.switchToBranch(scan.branch().get());
        }
        Map<String, String> options = new HashMap<>();
        TableVersion version = scan.version();
        switch (version.kind()) {
            case LATEST -> {}
            case SNAPSHOT -> options.put("scan.snapshot-id", Long.toString(version.snapshotId()));
            case TAG -> options.put("scan.tag-name", version.tagName());
            case TIMESTAMP -> options.put("scan.timestamp-millis", Long.toString(version.timestampMillis()));
        }
        if (!options.isEmpty()) {
            table = table.copy(options);
        }
        return table;
    }
}
