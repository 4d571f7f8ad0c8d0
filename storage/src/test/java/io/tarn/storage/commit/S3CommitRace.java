package io.tarn.storage.commit;

import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One writer process of {@link TestS3ConcurrentCommits}: {@code threads} threads each commit
 * {@code commits} appends to a table on an object store, each adding a copy of a data file of
 * a source table under a name of its own, and print {@code COMMITTED <snapshot id>} per commit.
 * <p>
 * Arguments: warehouse, source table, target table, writer name, threads, commits, then the
 * storage settings as {@code KEY=VALUE}.
 */
public final class S3CommitRace
{
    private S3CommitRace() {}

    public static void main(String[] args)
            throws Exception
    {
        Map<String, String> settings = new HashMap<>();
        for (int i = 6; i < args.length; i++) {
            int separator = args[i].indexOf('=');
            settings.put(args[i].substring(0, separator), args[i].substring(separator + 1));
        }
        Warehouse warehouse = Warehouse.open(args[0], settings);
        PaimonTable source = PaimonTable.load(warehouse.catalog(), Identifier.parse(args[1]));
        List<PlannedFile> files = new ScanPlanner(source).plan(source.snapshot(new ScanVersion.Latest())).files();
        String writerName = args[3];
        int threads = Integer.parseInt(args[4]);
        int commits = Integer.parseInt(args[5]);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                String writer = writerName + "-" + thread;
                Callable<List<Long>> task = () -> {
                    PaimonTable target = PaimonTable.load(warehouse.catalog(), Identifier.parse(args[2]));
                    TableCommit commit = new TableCommit(target, writer);
                    List<Long> committed = new ArrayList<>();
                    for (int i = 0; i < commits; i++) {
                        PlannedFile file = files.get(i % files.size());
                        String name = writer + "-" + i + "-" + file.file().fileName();
                        copy(warehouse.fileIO(), source.dataFilePath(file.partition(), file.bucket(), file.file(), file.file().fileName()),
                                target.dataFilePath(file.partition(), file.bucket(), file.file(), name));
                        Snapshot snapshot = commit.commit(List.of(renamedAdd(file, name)), CommitKind.APPEND, i);
                        committed.add(snapshot.id());
                    }
                    return committed;
                };
                results.add(executor.submit(task));
            }
            for (Future<List<Long>> result : results) {
                for (long id : result.get()) {
                    System.out.println("COMMITTED " + id);
                }
            }
        }
        finally {
            executor.shutdownNow();
        }
        System.out.flush();
        System.exit(0);
    }

    private static void copy(FileIO fileIO, String from, String to)
            throws java.io.IOException
    {
        fileIO.writeFile(to, fileIO.newInputFile(from).readAllBytes(), false);
    }

    static ManifestEntry renamedAdd(PlannedFile file, String name)
    {
        DataFileMeta meta = file.file();
        DataFileMeta renamed = new DataFileMeta(name, meta.fileSize(), meta.rowCount(), meta.minKey(), meta.maxKey(), meta.keyStats(), meta.valueStats(),
                meta.minSequenceNumber(), meta.maxSequenceNumber(), meta.schemaId(), meta.level(), meta.extraFiles(), meta.creationTime(), meta.deleteRowCount(),
                meta.embeddedIndex(), meta.fileSource(), meta.valueStatsCols(), meta.externalPath(), meta.firstRowId(), meta.writeCols());
        return new ManifestEntry(FileKind.ADD, file.partition(), file.bucket(), file.totalBuckets(), renamed);
    }
}
