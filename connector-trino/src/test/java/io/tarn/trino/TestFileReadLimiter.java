package io.tarn.trino;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataField;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.TypeOperators;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tarn.max-concurrent-file-reads}: the limiter's bookkeeping, and page sources that wait
 * for their files before they open any.
 */
public class TestFileReadLimiter
{
    @Test
    public void testGrantsInOrderWithinTheBound()
    {
        FileReadLimiter limiter = new FileReadLimiter(3, Duration.ofMinutes(1));
        FileReadLimiter.Reservation first = limiter.reserve(2);
        FileReadLimiter.Reservation second = limiter.reserve(2);
        FileReadLimiter.Reservation third = limiter.reserve(1);
        assertThat(first.tryStart()).isTrue();
        // first come, first served: the third fits but waits behind the second
        assertThat(second.tryStart()).isFalse();
        assertThat(third.tryStart()).isFalse();
        assertThat(second.ready()).isNotDone();
        assertThat(limiter.inUse()).isEqualTo(2);

        first.close();
        assertThat(second.ready()).isDone();
        assertThat(third.ready()).isDone();
        assertThat(second.tryStart()).isTrue();
        assertThat(third.tryStart()).isTrue();
        assertThat(limiter.inUse()).isEqualTo(3);
        second.close();
        second.close();
        third.close();
        assertThat(limiter.inUse()).isZero();
        assertThat(limiter.peakInUse()).isEqualTo(3);
    }

    @Test
    public void testRequestsAboveTheBoundAreCappedAndWaitersCanLeave()
    {
        FileReadLimiter limiter = new FileReadLimiter(2, Duration.ofMinutes(1));
        FileReadLimiter.Reservation merge = limiter.reserve(10);
        assertThat(merge.tryStart()).isTrue();
        assertThat(limiter.inUse()).isEqualTo(2);
        FileReadLimiter.Reservation cancelled = limiter.reserve(1);
        FileReadLimiter.Reservation next = limiter.reserve(1);
        cancelled.close();
        assertThat(cancelled.ready()).isDone();
        assertThat(cancelled.tryStart()).isFalse();
        merge.close();
        assertThat(next.tryStart()).isTrue();
        assertThat(limiter.inUse()).isEqualTo(1);
    }

    @Test
    public void testWaitIsBounded()
            throws Exception
    {
        FileReadLimiter limiter = new FileReadLimiter(1, Duration.ofMillis(50));
        FileReadLimiter.Reservation holder = limiter.reserve(1);
        assertThat(holder.tryStart()).isTrue();
        FileReadLimiter.Reservation waiter = limiter.reserve(1);
        assertThat(waiter.tryStart()).isFalse();
        waiter.ready().get();
        // past the wait it reads over the bound instead of waiting for ever
        assertThat(waiter.tryStart()).isTrue();
        assertThat(waiter.overdrawn()).isTrue();
        assertThat(limiter.inUse()).isEqualTo(2);
        holder.close();
        waiter.close();
        assertThat(limiter.inUse()).isZero();
    }

    @Test
    public void testPageSourcesWaitForTheirFiles()
            throws Exception
    {
        Path warehouse = TemporaryDirectories.create("tarn-file-reads");
        try (BufferAllocator allocator = new RootAllocator()) {
            ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
            String[] name = ReferenceTables.APPEND_PARTITIONED.identifier().split("\\.");
            PaimonTable table = PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse.toString()), new Identifier(name[0], name[1]));
            ScanPlan plan = new ScanPlanner(table).plan(table.snapshotManager().latest());
            assertThat(plan.splits()).hasSizeGreaterThanOrEqualTo(2);
            TarnTypes types = new TarnTypes(new TypeOperators());
            DataField field = plan.readSchema().fields().get(0);
            List<TarnColumnHandle> columns = List.of(TarnColumnHandle.base(field.name(), field.id(), types.toTrinoType(field.type())));
            FileReadLimiter limiter = new FileReadLimiter(1, Duration.ofMinutes(1));
            DataSplit firstSplit = plan.splits().get(0);
            DataSplit secondSplit = plan.splits().get(1);

            TarnPageSource first = new TarnPageSource(table, types, plan.readSchema(), firstSplit, columns, Optional.empty(), Optional.empty(), Optional.empty(), Map.of(), OptionalLong.empty(), true, allocator, limiter);
            TarnPageSource second = new TarnPageSource(table, types, plan.readSchema(), secondSplit, columns, Optional.empty(), Optional.empty(), Optional.empty(), Map.of(), OptionalLong.empty(), true, allocator, limiter);
            assertThat(first.isBlocked()).isDone();
            SourcePage page = first.getNextSourcePage();
            assertThat(page).isNotNull();
            assertThat(second.isBlocked()).isNotDone();
            assertThat(second.getNextSourcePage()).isNull();
            assertThat(second.isFinished()).isFalse();
            assertThat(limiter.inUse()).isEqualTo(1);

            // the first releases its file when it finishes; the second then reads all of its rows
            long firstRows = drain(first, page.getPositionCount());
            assertThat(firstRows).isEqualTo(firstSplit.rowCount());
            assertThat(second.isBlocked()).isDone();
            assertThat(drain(second, 0)).isEqualTo(secondSplit.rowCount());
            first.close();
            second.close();
            assertThat(limiter.inUse()).isZero();
            assertThat(limiter.peakInUse()).isEqualTo(1);
        }
        finally {
            TemporaryDirectories.deleteRecursively(warehouse);
        }
    }

    private static long drain(TarnPageSource source, long rows)
    {
        long total = rows;
        while (!source.isFinished()) {
            SourcePage page = source.getNextSourcePage();
            if (page != null) {
                total += page.getPositionCount();
            }
        }
        return total;
    }
}
