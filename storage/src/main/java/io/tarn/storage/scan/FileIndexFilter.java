package io.tarn.storage.scan;

import io.tarn.index.fileindex.CorruptIndexException;
import io.tarn.index.fileindex.FileIndexEvaluator;
import io.tarn.index.fileindex.FileIndexEvaluator.Evaluation;
import io.tarn.index.fileindex.FileIndexEvaluator.IndexColumn;
import io.tarn.index.fileindex.FileIndexFile;
import io.tarn.index.fileindex.FileIndexOptions;
import io.tarn.index.fileindex.FileIndexResult;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.fs.RandomAccessInput;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;

import java.io.EOFException;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Applies a filter to the file indexes of data files (Paimon's {@code FileIndexEvaluator}): the
 * container embedded in the manifest entry, or the {@code <data file>.index} extra file. A filter
 * column uses a file's indexes only when the file's schema has the column (by field id) with the
 * same type; the index is found under the file schema's name for it.
 *
 * <p>An index may only remove work: a container or index that is corrupt, missing or of an
 * unknown type is ignored and counted, and the file is then read in full.
 */
public final class FileIndexFilter
{
    /** The suffix of file-index extra files ({@code DataFilePathFactory.INDEX_PATH_SUFFIX}). */
    public static final String INDEX_FILE_SUFFIX = ".index";

    private final PaimonTable table;
    private final Predicate filter;
    private final Map<Long, Map<Integer, DataField>> fileFieldsBySchema = new HashMap<>();
    private final Map<Long, Boolean> mayIndexBySchema = new HashMap<>();

    /**
     * What the indexes of one file said: the result ({@link FileIndexResult#REMAIN} when the file
     * has no usable index), where the index came from, and how many indexes were ignored because
     * they are corrupt, missing or of an unsupported type.
     */
    public record Outcome(FileIndexResult result, Source source, int indexesIgnored)
    {
        public Outcome
        {
            requireNonNull(result, "result is null");
            requireNonNull(source, "source is null");
        }
    }

    public enum Source
    {
        NONE,
        EMBEDDED,
        INDEX_FILE,
    }

    /**
     * @param filter a filter over the fields (by id) of the read schema
     */
    public FileIndexFilter(PaimonTable table, Predicate filter)
    {
        this.table = requireNonNull(table, "table is null");
        this.filter = requireNonNull(filter, "filter is null");
    }

    /**
     * Evaluates the container embedded in the file's manifest entry; {@link Source#NONE} when
     * there is none.
     */
    public Outcome evaluateEmbedded(PlannedFile file)
            throws IOException
    {
        byte[] embedded = file.file().embeddedIndex();
        if (embedded == null) {
            return new Outcome(FileIndexResult.REMAIN, Source.NONE, 0);
        }
        return evaluate(file, embedded, Source.EMBEDDED);
    }

    /**
     * Evaluates the file's embedded container, or else its {@code .index} extra file.
     */
    public Outcome evaluate(PlannedFile file)
            throws IOException
    {
        if (file.file().embeddedIndex() != null) {
            return evaluateEmbedded(file);
        }
        List<String> indexFiles = file.file().extraFiles().stream().filter(name -> name.endsWith(INDEX_FILE_SUFFIX)).toList();
        if (indexFiles.isEmpty() || !mayIndexFilterColumns(file.file().schemaId())) {
            return new Outcome(FileIndexResult.REMAIN, Source.NONE, 0);
        }
        if (file.file().fileSize() <= table.fileIO().wholeReadThreshold()) {
            // on an object store the data file comes whole in one request: its index file, another
            // request, could save at most that one, so the rows are tested instead
            return new Outcome(FileIndexResult.REMAIN, Source.NONE, 0);
        }
        if (indexFiles.size() > 1) {
            // Paimon refuses such a file; which index is current is unknown, so none is used
            return new Outcome(FileIndexResult.REMAIN, Source.INDEX_FILE, indexFiles.size());
        }
        InputFile indexFile = table.fileIO().newInputFile(indexFilePath(file, indexFiles.get(0)));
        // held open for the evaluation: the head, then only the payload bytes the filter needs,
        // which for a Bloom filter lookup are a few single bytes
        try (RandomAccessInput input = indexFile.openRandomAccess()) {
            FileIndexFile container = FileIndexFile.open(input::readFully, input.length());
            return evaluate(file, container, Source.INDEX_FILE);
        }
        catch (CorruptIndexException | MissingFileException | EOFException e) {
            // gone or cut short since it was listed: as good as corrupt
            return new Outcome(FileIndexResult.REMAIN, Source.INDEX_FILE, 1);
        }
    }

    /**
     * Whether the index options of the schema a file was written with name a column the filter
     * reads: else its index file cannot answer the filter, and reading it (a request on an
     * object store) is saved. A writer given index options only for its own run (Paimon's dynamic
     * options) may have indexed other columns; such an index then goes unused, which reads more
     * data but never less.
     */
    private boolean mayIndexFilterColumns(long schemaId)
            throws IOException
    {
        Boolean known = mayIndexBySchema.get(schemaId);
        if (known != null) {
            return known;
        }
        boolean mayIndex;
        try {
            Set<String> indexed = new HashSet<>();
            FileIndexOptions.parse(table.schema(schemaId).options()).forEach(spec -> indexed.add(spec.column()));
            Map<Integer, DataField> fileFields = fileFields(schemaId);
            mayIndex = filter.fieldIds().stream().map(fileFields::get).anyMatch(field -> field != null && indexed.contains(field.name()));
        }
        catch (IllegalArgumentException e) {
            // options Tarn cannot parse: read the index and let it tell
            mayIndex = true;
        }
        mayIndexBySchema.put(schemaId, mayIndex);
        return mayIndex;
    }

    private Outcome evaluate(PlannedFile file, byte[] container, Source source)
            throws IOException
    {
        try {
            return evaluate(file, FileIndexFile.parse(container), source);
        }
        catch (CorruptIndexException e) {
            return new Outcome(FileIndexResult.REMAIN, source, 1);
        }
    }

    private Outcome evaluate(PlannedFile file, FileIndexFile container, Source source)
            throws IOException
    {
        DataFileMeta meta = file.file();
        Map<Integer, DataField> fileFields = fileFields(meta.schemaId());
        FileIndexEvaluator.ColumnResolver resolver = field -> column(field, fileFields);
        try {
            Evaluation evaluation = FileIndexEvaluator.evaluate(container, filter, resolver, meta.rowCount());
            return new Outcome(evaluation.result(), source, evaluation.indexesIgnored());
        }
        catch (CorruptIndexException e) {
            return new Outcome(FileIndexResult.REMAIN, source, 1);
        }
    }

    private static Optional<IndexColumn> column(FieldRef field, Map<Integer, DataField> fileFields)
    {
        DataField fileField = fileFields.get(field.fieldId());
        if (fileField == null || !fileField.type().withNullable(true).equals(field.type().withNullable(true))) {
            return Optional.empty();
        }
        return Optional.of(new IndexColumn(fileField.name(), fileField.type()));
    }

    private Map<Integer, DataField> fileFields(long schemaId)
            throws IOException
    {
        Map<Integer, DataField> fields = fileFieldsBySchema.get(schemaId);
        if (fields == null) {
            TableSchema schema = table.schema(schemaId);
            fields = new HashMap<>();
            for (DataField field : schema.fields()) {
                fields.put(field.id(), field);
            }
            fileFieldsBySchema.put(schemaId, fields);
        }
        return fields;
    }

    /**
     * The index file lies beside its data file, also when that has an external path.
     */
    private String indexFilePath(PlannedFile file, String indexFileName)
            throws IOException
    {
        DataFileMeta meta = file.file();
        if (meta.externalPath().isPresent()) {
            String dataPath = meta.externalPath().get();
            return dataPath.substring(0, dataPath.lastIndexOf('/') + 1) + indexFileName;
        }
        return table.dataFilePath(file.partition(), file.bucket(), meta, indexFileName);
    }
}
