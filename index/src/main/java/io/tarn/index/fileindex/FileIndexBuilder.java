package io.tarn.index.fileindex;

import io.tarn.index.fileindex.FileIndexOptions.IndexSpec;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Builds the file-index container of one data file from its rows, for the Bloom filter and
 * bitmap indexes a table's options ask for. Callers hand over, row by row, the values of
 * {@link #sourceColumns()}; a map column's value is a {@link Map} (or null), and each indexed key
 * sees the value under it, or null when the key is absent, as Paimon's writer does.
 */
public final class FileIndexBuilder
{
    private final List<DataField> sourceColumns;
    private final List<Sink> sinks;

    private record Sink(int source, Optional<String> mapKey, String indexColumn, String type, FileIndexWriter writer) {}

    private FileIndexBuilder(List<DataField> sourceColumns, List<Sink> sinks)
    {
        this.sourceColumns = List.copyOf(sourceColumns);
        this.sinks = List.copyOf(sinks);
    }

    /**
     * A builder for the indexes in {@code specs} over rows of {@code rowType}; empty when no
     * index can be built. Index types other than Bloom filter and bitmap are left out: a file
     * without an index is read in full, never wrongly.
     *
     * @throws IllegalArgumentException if a spec names a missing column, a map key of a column
     * that is not a map with string keys, a type the index does not support, or a bad option
     */
    public static Optional<FileIndexBuilder> create(List<IndexSpec> specs, RowType rowType)
    {
        requireNonNull(specs, "specs is null");
        requireNonNull(rowType, "rowType is null");
        List<DataField> sources = new ArrayList<>();
        List<Sink> sinks = new ArrayList<>();
        for (IndexSpec spec : specs) {
            if (!spec.type().equals(BloomFilterIndex.TYPE) && !spec.type().equals(BitmapIndex.TYPE)) {
                continue;
            }
            DataField field = rowType.field(spec.column())
                    .orElseThrow(() -> new IllegalArgumentException("File index column " + spec.column() + " does not exist"));
            DataType valueType = field.type();
            if (spec.mapKey().isPresent()) {
                if (!(field.type() instanceof MapType mapType) || !mapType.key().root().isCharacterString()) {
                    throw new IllegalArgumentException("File index column " + spec.indexColumn() + " needs " + spec.column() + " to be a map with string keys, but it is "
                            + field.type().asSqlString());
                }
                valueType = mapType.value();
            }
            int source = sources.indexOf(field);
            if (source < 0) {
                source = sources.size();
                sources.add(field);
            }
            sinks.add(new Sink(source, spec.mapKey(), spec.indexColumn(), spec.type(), writer(spec, valueType)));
        }
        return sinks.isEmpty() ? Optional.empty() : Optional.of(new FileIndexBuilder(sources, sinks));
    }

    private static FileIndexWriter writer(IndexSpec spec, DataType type)
    {
        String where = "file index " + spec.type() + " of column " + spec.indexColumn();
        if (spec.type().equals(BloomFilterIndex.TYPE)) {
            if (!FileIndexHash.supports(type)) {
                throw new IllegalArgumentException("The " + where + " does not support type " + type.asSqlString());
            }
            int items = intOption(spec, "items", BloomFilterIndex.DEFAULT_ITEMS, where);
            double fpp = doubleOption(spec, "fpp", BloomFilterIndex.DEFAULT_FPP, where);
            return new BloomFilterIndex.Writer(type, items, fpp);
        }
        if (!BitmapKeys.supports(type)) {
            throw new IllegalArgumentException("The " + where + " does not support type " + type.asSqlString());
        }
        int version = intOption(spec, "version", BitmapIndex.DEFAULT_VERSION, where);
        long blockSize = Optional.ofNullable(spec.options().get("index-block-size"))
                .map(value -> MemorySizes.parse(value, "index-block-size of the " + where))
                .orElse(BitmapIndex.DEFAULT_BLOCK_SIZE);
        return new BitmapIndex.Writer(type, version, blockSize);
    }

    public List<DataField> sourceColumns()
    {
        return sourceColumns;
    }

    /**
     * Adds the next row: the values of {@link #sourceColumns()} in order, internal
     * representation, null for null.
     */
    public void add(List<?> values)
    {
        for (Sink sink : sinks) {
            Object value = values.get(sink.source());
            if (sink.mapKey().isPresent() && value != null) {
                value = ((Map<?, ?>) value).get(sink.mapKey().get());
            }
            sink.writer().add(value);
        }
    }

    /**
     * The container of every index over the rows added.
     */
    public byte[] serialize()
    {
        Map<String, Map<String, byte[]>> indexes = new LinkedHashMap<>();
        for (Sink sink : sinks) {
            indexes.computeIfAbsent(sink.indexColumn(), ignored -> new LinkedHashMap<>()).put(sink.type(), sink.writer().serialize());
        }
        return FileIndexFile.serialize(indexes);
    }

    private static int intOption(IndexSpec spec, String key, int defaultValue, String where)
    {
        String value = spec.options().get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value.trim());
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("Option " + key + " of the " + where + " is not an integer: '" + value + "'", e);
        }
    }

    private static double doubleOption(IndexSpec spec, String key, double defaultValue, String where)
    {
        String value = spec.options().get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Double.parseDouble(value.trim());
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("Option " + key + " of the " + where + " is not a number: '" + value + "'", e);
        }
    }
}
