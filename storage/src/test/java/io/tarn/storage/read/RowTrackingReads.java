package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Tarn's read of a table that tracks rows, for comparison with Paimon's row-tracking view
 * ({@code ReferenceReader.readWithRowTracking}): the table's columns, then {@code _ROW_ID} and
 * {@code _SEQUENCE_NUMBER}, as canonical rows.
 */
public final class RowTrackingReads
{
    private RowTrackingReads() {}

    public static String rows(PaimonTable table, Optional<Predicate> filter, BufferAllocator allocator)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        List<DataField> columns = new ArrayList<>(plan.readSchema().fields());
        columns.addAll(RowTrackingFields.of(table.name(), plan.readSchema()));
        ReadRequest request = filter.isPresent() ? ReadRequest.of(columns).withFilter(filter.get()) : ReadRequest.of(columns);
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, request, allocator, batch -> CanonicalRowFormatter.appendLines(batch, request.columns(), lines));
        return CanonicalRowSet.of(lines).text();
    }
}
