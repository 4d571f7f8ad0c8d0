package io.tarn.testing;

import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.RowType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Paimon's own scan plan ({@code ReadBuilder.newScan().plan()}) flattened to its data files, for
 * comparing which files Tarn plans, prunes and pairs with deletion vectors.
 */
public final class ReferencePlan
{
    private ReferencePlan() {}

    public static List<PlannedFile> plan(Path warehouse, String table)
    {
        return plan(warehouse, ReferenceScan.of(table));
    }

    /**
     * The files Paimon plans, sorted by partition (UTF-8 order), bucket and file name.
     */
    public static List<PlannedFile> plan(Path warehouse, ReferenceScan scan)
    {
        return plan(PaimonWarehouse.local(warehouse), scan);
    }

    public static List<PlannedFile> plan(PaimonWarehouse warehouse, ReferenceScan scan)
    {
        FileStoreTable table = ReferenceReader.resolve(warehouse, scan);
        RowType partitionType = table.schema().logicalPartitionType();
        ReadBuilder readBuilder = table.newReadBuilder();
        scan.filter().ifPresent(readBuilder::withFilter);
        List<PlannedFile> files = new ArrayList<>();
        for (Split split : readBuilder.newScan().plan().splits()) {
            DataSplit dataSplit = (DataSplit) split;
            String partition = formatPartition(dataSplit.partition(), partitionType);
            List<DataFileMeta> dataFiles = dataSplit.dataFiles();
            List<DeletionFile> deletionFiles = dataSplit.deletionFiles().orElse(List.of());
            for (int i = 0; i < dataFiles.size(); i++) {
                DataFileMeta file = dataFiles.get(i);
                DeletionFile deletionFile = i < deletionFiles.size() ? deletionFiles.get(i) : null;
                files.add(new PlannedFile(
                        partition,
                        dataSplit.bucket(),
                        file.fileName(),
                        file.level(),
                        file.rowCount(),
                        file.schemaId(),
                        file.extraFiles(),
                        file.embeddedIndex() != null,
                        Optional.ofNullable(deletionFile).map(ReferencePlan::toPlannedDeletionFile)));
            }
        }
        files.sort(PlannedFile.ORDER);
        return List.copyOf(files);
    }

    private static PlannedDeletionFile toPlannedDeletionFile(DeletionFile file)
    {
        String path = file.path();
        String name = path.substring(path.lastIndexOf('/') + 1);
        Long cardinality = file.cardinality();
        return new PlannedDeletionFile(
                name,
                file.offset(),
                file.length(),
                cardinality == null ? OptionalLong.empty() : OptionalLong.of(cardinality));
    }

    static String formatPartition(BinaryRow partition, RowType partitionType)
    {
        if (partitionType.getFieldCount() == 0) {
            return "";
        }
        return CanonicalValueFormatter.formatRow(partition, partitionType);
    }
}
