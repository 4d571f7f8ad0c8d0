package io.tarn.trino;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code count(*)} from manifests: the row counts of the live files minus the cardinalities of
 * their deletion vectors. Exact only when every planned split is read raw, every file holds
 * inserts only (no retraction rows) and every deletion vector's cardinality is known; otherwise
 * empty and the rows are counted by reading.
 */
final class TarnRowCounts
{
    private TarnRowCounts() {}

    static OptionalLong count(PaimonTable table, TableSchema schema, TarnTableHandle handle)
    {
        if (handle.enforcedPredicate().isNone()) {
            return OptionalLong.of(0);
        }
        try {
            Optional<Predicate> predicate = TarnPredicates.toPredicate(handle.enforcedPredicate(), schema.fields());
            ScanPlanner planner = new ScanPlanner(table);
            if (predicate.isPresent()) {
                planner = planner.withFilter(predicate.get());
            }
            ScanPlan plan = planner.plan(TarnSnapshots.pinned(table, handle));
            boolean primaryKey = !schema.primaryKeys().isEmpty();
            long count = 0;
            for (DataSplit split : plan.splits()) {
                if (split.mergeRequired()) {
                    return OptionalLong.empty();
                }
                for (PlannedFile file : split.files()) {
                    if (primaryKey && (file.file().deleteRowCount().isEmpty() || file.file().deleteRowCount().getAsLong() != 0)) {
                        return OptionalLong.empty();
                    }
                    Optional<Long> live = file.liveRowCount();
                    if (live.isEmpty()) {
                        return OptionalLong.empty();
                    }
                    count += live.get();
                }
            }
            return OptionalLong.of(count);
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot count the rows of table " + table.name() + " at " + handle, e);
        }
    }
}
