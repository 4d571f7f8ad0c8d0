package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The metadata of one data file as stored in a manifest entry's {@code _FILE} record (Paimon's
 * {@code DataFileMeta}, 20 fields in 1.3). Fields added after Paimon 0.8 are absent in older
 * files:
 * <ul>
 * <li>{@code creationTime}: epoch millis as written, which is the writer's <em>local</em>
 *     wall-clock time, not UTC;</li>
 * <li>{@code deleteRowCount}: rows of kind -U/-D; absent means the file may contain retractions;</li>
 * <li>{@code embeddedIndex}: the file index inline, or null;</li>
 * <li>{@code fileSource}: {@link #FILE_SOURCE_APPEND} or 1 (COMPACT);</li>
 * <li>{@code valueStatsCols}: absent means the value stats cover all columns; an empty list
 *     means there are no value stats;</li>
 * <li>{@code externalPath}: the file's absolute location when outside the table directory;</li>
 * <li>{@code firstRowId}, {@code writeCols}: row tracking and data evolution (1.3).</li>
 * </ul>
 */
public record DataFileMeta(
        String fileName,
        long fileSize,
        long rowCount,
        BinaryRow minKey,
        BinaryRow maxKey,
        SimpleStats keyStats,
        SimpleStats valueStats,
        long minSequenceNumber,
        long maxSequenceNumber,
        long schemaId,
        int level,
        List<String> extraFiles,
        OptionalLong creationTime,
        OptionalLong deleteRowCount,
        byte[] embeddedIndex,
        OptionalInt fileSource,
        Optional<List<String>> valueStatsCols,
        Optional<String> externalPath,
        OptionalLong firstRowId,
        Optional<List<String>> writeCols)
{
    /** {@code _FILE_SOURCE} of a file a writer wrote, rather than a compaction. */
    public static final int FILE_SOURCE_APPEND = 0;

    public DataFileMeta
    {
        requireNonNull(fileName, "fileName is null");
        requireNonNull(minKey, "minKey is null");
        requireNonNull(maxKey, "maxKey is null");
        requireNonNull(keyStats, "keyStats is null");
        requireNonNull(valueStats, "valueStats is null");
        extraFiles = List.copyOf(requireNonNull(extraFiles, "extraFiles is null"));
        requireNonNull(creationTime, "creationTime is null");
        requireNonNull(deleteRowCount, "deleteRowCount is null");
        embeddedIndex = embeddedIndex == null ? null : embeddedIndex.clone();
        requireNonNull(fileSource, "fileSource is null");
        valueStatsCols = requireNonNull(valueStatsCols, "valueStatsCols is null").map(List::copyOf);
        requireNonNull(externalPath, "externalPath is null");
        requireNonNull(firstRowId, "firstRowId is null");
        writeCols = requireNonNull(writeCols, "writeCols is null").map(List::copyOf);
    }

    /** A copy of the embedded file index, or null when the file has none inline. */
    @Override
    public byte[] embeddedIndex()
    {
        return embeddedIndex == null ? null : embeddedIndex.clone();
    }

    /** The number of +I/+U rows, when the delete row count is known. */
    public OptionalLong addRowCount()
    {
        return deleteRowCount.isPresent() ? OptionalLong.of(rowCount - deleteRowCount.getAsLong()) : OptionalLong.empty();
    }

    public DataFileMeta withLevel(int newLevel)
    {
        return new DataFileMeta(fileName, fileSize, rowCount, minKey, maxKey, keyStats, valueStats, minSequenceNumber, maxSequenceNumber,
                schemaId, newLevel, extraFiles, creationTime, deleteRowCount, embeddedIndex, fileSource, valueStatsCols, externalPath,
                firstRowId, writeCols);
    }

    /**
     * This file with its first row id and sequence numbers as a commit to a row-tracking table
     * assigns them.
     */
    public DataFileMeta withRowTracking(long newFirstRowId, long newMinSequenceNumber, long newMaxSequenceNumber)
    {
        return new DataFileMeta(fileName, fileSize, rowCount, minKey, maxKey, keyStats, valueStats, newMinSequenceNumber, newMaxSequenceNumber,
                schemaId, level, extraFiles, creationTime, deleteRowCount, embeddedIndex, fileSource, valueStatsCols, externalPath,
                OptionalLong.of(newFirstRowId), writeCols);
    }

    byte[] embeddedIndexUnsafe()
    {
        return embeddedIndex;
    }

    @Override
    public boolean equals(Object other)
    {
        if (this == other) {
            return true;
        }
        return other instanceof DataFileMeta that
                && fileSize == that.fileSize
                && rowCount == that.rowCount
                && minSequenceNumber == that.minSequenceNumber
                && maxSequenceNumber == that.maxSequenceNumber
                && schemaId == that.schemaId
                && level == that.level
                && fileName.equals(that.fileName)
                && minKey.equals(that.minKey)
                && maxKey.equals(that.maxKey)
                && keyStats.equals(that.keyStats)
                && valueStats.equals(that.valueStats)
                && extraFiles.equals(that.extraFiles)
                && creationTime.equals(that.creationTime)
                && deleteRowCount.equals(that.deleteRowCount)
                && Arrays.equals(embeddedIndex, that.embeddedIndex)
                && fileSource.equals(that.fileSource)
                && valueStatsCols.equals(that.valueStatsCols)
                && externalPath.equals(that.externalPath)
                && firstRowId.equals(that.firstRowId)
                && writeCols.equals(that.writeCols);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(fileName, fileSize, rowCount, minKey, maxKey, keyStats, valueStats, minSequenceNumber, maxSequenceNumber,
                schemaId, level, extraFiles, creationTime, deleteRowCount, Arrays.hashCode(embeddedIndex), fileSource, valueStatsCols,
                externalPath, firstRowId, writeCols);
    }

    @Override
    public String toString()
    {
        return "DataFileMeta{fileName=" + fileName
                + ", fileSize=" + fileSize
                + ", rowCount=" + rowCount
                + ", minKey=" + minKey
                + ", maxKey=" + maxKey
                + ", keyStats=" + keyStats
                + ", valueStats=" + valueStats
                + ", minSequenceNumber=" + minSequenceNumber
                + ", maxSequenceNumber=" + maxSequenceNumber
                + ", schemaId=" + schemaId
                + ", level=" + level
                + ", extraFiles=" + extraFiles
                + ", creationTime=" + creationTime
                + ", deleteRowCount=" + deleteRowCount
                + ", embeddedIndex=" + (embeddedIndex == null ? "null" : HexFormat.of().formatHex(embeddedIndex))
                + ", fileSource=" + fileSource
                + ", valueStatsCols=" + valueStatsCols
                + ", externalPath=" + externalPath
                + ", firstRowId=" + firstRowId
                + ", writeCols=" + writeCols
                + "}";
    }
}
