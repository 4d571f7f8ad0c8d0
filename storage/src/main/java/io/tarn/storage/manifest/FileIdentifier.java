package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The identity under which manifest entries ADD and DELETE a data file (Paimon's
 * {@code FileEntry.Identifier}). It includes the level, so moving a file to another level is a
 * DELETE plus an ADD, and the extra files, embedded index and external path.
 */
public record FileIdentifier(
        BinaryRow partition,
        int bucket,
        int level,
        String fileName,
        List<String> extraFiles,
        byte[] embeddedIndex,
        Optional<String> externalPath)
{
    public FileIdentifier
    {
        requireNonNull(partition, "partition is null");
        requireNonNull(fileName, "fileName is null");
        extraFiles = List.copyOf(requireNonNull(extraFiles, "extraFiles is null"));
        embeddedIndex = embeddedIndex == null ? null : embeddedIndex.clone();
        requireNonNull(externalPath, "externalPath is null");
    }

    @Override
    public byte[] embeddedIndex()
    {
        return embeddedIndex == null ? null : embeddedIndex.clone();
    }

    @Override
    public boolean equals(Object other)
    {
        if (this == other) {
            return true;
        }
        return other instanceof FileIdentifier that
                && bucket == that.bucket
                && level == that.level
                && partition.equals(that.partition)
                && fileName.equals(that.fileName)
                && extraFiles.equals(that.extraFiles)
                && Arrays.equals(embeddedIndex, that.embeddedIndex)
                && externalPath.equals(that.externalPath);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(partition, bucket, level, fileName, extraFiles, Arrays.hashCode(embeddedIndex), externalPath);
    }

    @Override
    public String toString()
    {
        return "FileIdentifier{partition=" + partition + ", bucket=" + bucket + ", level=" + level + ", fileName=" + fileName
                + ", extraFiles=" + extraFiles + ", embeddedIndex=" + (embeddedIndex == null ? "null" : embeddedIndex.length + " bytes")
                + ", externalPath=" + externalPath + "}";
    }
}
