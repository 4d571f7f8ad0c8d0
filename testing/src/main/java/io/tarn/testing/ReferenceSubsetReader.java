package io.tarn.testing;

import org.apache.paimon.data.InternalRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads, with Apache Paimon's own reader, only some of the data files of a table version: Paimon
 * plans the version without a filter, every split keeps just the named files (with their deletion
 * vectors), and the filter is applied to each row read. Comparing the result with
 * {@link ReferenceReader#read} shows whether a file set that some planner pruned still holds every
 * matching row: a pruned file with a matching row, or a pruned sorted run that changes a merged
 * row, makes the two differ.
 */
public final class ReferenceSubsetReader
{
    private ReferenceSubsetReader() {}

    public static CanonicalRows readFiles(Path warehouse, ReferenceScan scan, Set<String> fileNames)
    {
        FileStoreTable table = ReferenceReader.resolve(warehouse, scan);
        RowType rowType = table.rowType();
        ReadBuilder readBuilder = table.newReadBuilder();
        Optional<Predicate> filter = scan.filter();
        List<String> lines = new ArrayList<>();
        try {
            List<Split> subset = new ArrayList<>();
            for (Split split : readBuilder.newScan().plan().splits()) {
                keepFiles((DataSplit) split, fileNames).ifPresent(subset::add);
            }
            try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(subset)) {
                reader.forEachRemaining(row -> {
                    if (filter.isEmpty() || filter.get().test(row)) {
                        lines.add(CanonicalValueFormatter.formatRow(row, rowType));
                    }
                });
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Paimon failed to read files of " + scan.table() + " at " + scan.version(), e);
        }
        return CanonicalRows.of(lines);
    }

    private static Optional<DataSplit> keepFiles(DataSplit split, Set<String> fileNames)
    {
        List<DataFileMeta> files = split.dataFiles();
        List<DeletionFile> deletionFiles = split.deletionFiles().orElse(null);
        List<DataFileMeta> keptFiles = new ArrayList<>();
        List<DeletionFile> keptDeletionFiles = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            if (fileNames.contains(files.get(i).fileName())) {
                keptFiles.add(files.get(i));
                keptDeletionFiles.add(deletionFiles == null ? null : deletionFiles.get(i));
            }
        }
        if (keptFiles.isEmpty()) {
            return Optional.empty();
        }
        DataSplit.Builder builder = DataSplit.builder()
                .withSnapshot(split.snapshotId())
                .withPartition(split.partition())
                .withBucket(split.bucket())
                .withBucketPath(split.bucketPath())
                .withTotalBuckets(split.totalBuckets())
                .withDataFiles(keptFiles)
                .isStreaming(false)
                .rawConvertible(split.rawConvertible());
        if (deletionFiles != null) {
            builder.withDataDeletionFiles(keptDeletionFiles);
        }
        return Optional.of(builder.build());
    }
}
