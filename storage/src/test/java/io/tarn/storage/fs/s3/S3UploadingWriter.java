package io.tarn.storage.fs.s3;

import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.AppendTableWriter;
import org.apache.arrow.memory.RootAllocator;

import java.util.HashMap;
import java.util.Map;

/**
 * The writer process that {@link TestS3Faults} kills while it uploads: it appends the rows of a
 * source table, {@code copies} times over in small batches, to a target table with a tiny target
 * file size, so that it uploads many small data files before its one commit. It prints
 * {@code UPLOADING} before the first file and {@code COMMITTED <snapshot id>} at the end.
 * <p>
 * Arguments: warehouse, source table, target table, copies, then the storage settings as
 * {@code KEY=VALUE}.
 */
public final class S3UploadingWriter
{
    private S3UploadingWriter() {}

    public static void main(String[] args)
            throws Exception
    {
        Map<String, String> settings = new HashMap<>();
        for (int i = 4; i < args.length; i++) {
            int separator = args[i].indexOf('=');
            settings.put(args[i].substring(0, separator), args[i].substring(separator + 1));
        }
        Warehouse warehouse = Warehouse.open(args[0], settings);
        PaimonTable source = PaimonTable.load(warehouse.catalog(), Identifier.parse(args[1]));
        PaimonTable target = PaimonTable.load(warehouse.catalog(), Identifier.parse(args[2]));
        int copies = Integer.parseInt(args[3]);
        ScanPlan plan = new ScanPlanner(source).plan(source.snapshot(new ScanVersion.Latest()));
        try (RootAllocator allocator = new RootAllocator(); AppendTableWriter writer = new AppendTableWriter(target, allocator)) {
            System.out.println("UPLOADING");
            System.out.flush();
            for (int copy = 0; copy < copies; copy++) {
                TableRead.forEachBatch(source, plan, ReadRequest.of(plan.readSchema().fields()).withBatchSize(7), allocator, writer::write);
            }
            Snapshot snapshot = new TableCommit(target, "uploading-writer").commit(writer.prepareCommit(), CommitKind.APPEND, 1);
            System.out.println("COMMITTED " + snapshot.id());
        }
        System.out.flush();
        System.exit(0);
    }
}
