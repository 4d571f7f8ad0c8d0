package io.tarn.vector.metadata;

import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.ParquetUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.decoders.ByteArrays;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;
import shaded.parquet.org.apache.thrift.TBase;
import shaded.parquet.org.apache.thrift.TConfiguration;
import shaded.parquet.org.apache.thrift.protocol.TCompactProtocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The footer of a Parquet file: {@code "PAR1" ... FileMetaData (thrift compact) | int32 LE
 * footer length | "PAR1"}. Reading checks both magics, that the footer lies inside the file, and
 * that the schema tree and the row groups' column chunks agree; thrift strings and containers are
 * bounded by the footer length so that a corrupt length cannot allocate more than the file holds.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class ParquetFooter
{
    public static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_SCHEMA_DEPTH = 64;

    private final FileMetaData metadata;
    private final SchemaNode root;
    private final List<SchemaNode> leaves;
    private final long fileLength;
    private final long footerStart;

    private ParquetFooter(FileMetaData metadata, SchemaNode root, List<SchemaNode> leaves, long fileLength, long footerStart)
    {
        this.metadata = requireNonNull(metadata, "metadata is null");
        this.root = requireNonNull(root, "root is null");
        this.leaves = List.copyOf(leaves);
        this.fileLength = fileLength;
        this.footerStart = footerStart;
    }

    public FileMetaData metadata()
    {
        return metadata;
    }

    public SchemaNode root()
    {
        return root;
    }

    public List<SchemaNode> leaves()
    {
        return leaves;
    }

    public long fileLength()
    {
        return fileLength;
    }

    /**
     * The first byte of the serialized footer: column data must end before it.
     */
    public long footerStart()
    {
        return footerStart;
    }

    public static ParquetFooter read(DataFileInput input)
            throws IOException
    {
        String file = input.name();
        long length = input.length();
        if (length < MAGIC.length * 2L + 4) {
            throw new ParquetCorruptionException("File " + file + " is too short to be Parquet (" + length + " bytes)");
        }
        byte[] tail = new byte[8];
        input.readFully(length - 8, tail, 0, 8);
        byte[] head = new byte[4];
        input.readFully(0, head, 0, 4);
        if (regionEquals(tail, 4, ENCRYPTED_MAGIC) || regionEquals(head, 0, ENCRYPTED_MAGIC)) {
            throw new ParquetUnsupportedException("File " + file + " uses Parquet modular encryption, which is not supported");
        }
        if (!regionEquals(tail, 4, MAGIC)) {
            throw new ParquetCorruptionException("File " + file + " does not end with the Parquet magic PAR1");
        }
        if (!regionEquals(head, 0, MAGIC)) {
            throw new ParquetCorruptionException("File " + file + " does not start with the Parquet magic PAR1");
        }
        long footerLength = Integer.toUnsignedLong(ByteArrays.intLE(tail, 0));
        long footerStart = length - 8 - footerLength;
        if (footerStart < MAGIC.length) {
            throw new ParquetCorruptionException("File " + file + " has a footer length of " + footerLength + " bytes, past the start of the file (" + length + " bytes)");
        }
        byte[] footer = new byte[(int) footerLength];
        input.readFully(footerStart, footer, 0, footer.length);
        FileMetaData metadata = new FileMetaData();
        readThrift(metadata, footer, 0, footer.length, file, "footer");
        checkEncryption(metadata, file);
        List<SchemaElement> elements = metadata.getSchema();
        if (elements == null || elements.isEmpty()) {
            throw new ParquetCorruptionException("File " + file + " has no schema in its footer");
        }
        List<SchemaNode> leaves = new ArrayList<>();
        int[] cursor = {0};
        SchemaNode root = buildNode(elements, cursor, 0, 0, leaves, List.of(), file, true);
        if (cursor[0] != elements.size()) {
            throw new ParquetCorruptionException("File " + file + " has " + (elements.size() - cursor[0]) + " schema elements outside the schema tree");
        }
        if (metadata.getRow_groups() == null) {
            throw new ParquetCorruptionException("File " + file + " has no row group list in its footer");
        }
        long totalRows = 0;
        List<ChunkRange> chunkRanges = new ArrayList<>();
        for (RowGroup rowGroup : metadata.getRow_groups()) {
            if (rowGroup.getNum_rows() < 0) {
                throw new ParquetCorruptionException("File " + file + " has a row group with a negative row count " + rowGroup.getNum_rows());
            }
            List<ColumnChunk> columns = rowGroup.getColumns();
            if (columns == null || columns.size() != leaves.size()) {
                throw new ParquetCorruptionException("File " + file + " has a row group with " + (columns == null ? 0 : columns.size()) + " column chunks for " + leaves.size() + " schema columns");
            }
            for (int i = 0; i < columns.size(); i++) {
                ColumnChunk column = columns.get(i);
                if (!column.isSetMeta_data()) {
                    throw new ParquetCorruptionException("File " + file + " has a column chunk without metadata");
                }
                if (column.isSetFile_path()) {
                    throw new ParquetUnsupportedException("File " + file + " refers to column data in another file " + column.getFile_path());
                }
                checkChunk(column.getMeta_data(), leaves.get(i), file);
                chunkRanges.add(new ChunkRange(chunkStart(column.getMeta_data()), column.getMeta_data().getTotal_compressed_size(), leaves.get(i).path()));
            }
            totalRows += rowGroup.getNum_rows();
            if (totalRows < 0) {
                throw new ParquetCorruptionException("File " + file + " has an overflowing row count");
            }
        }
        checkDisjoint(chunkRanges, file);
        // the reader reads as many rows as the row groups claim: both counts must agree
        if (totalRows != metadata.getNum_rows()) {
            throw new ParquetCorruptionException("File " + file + " has " + metadata.getNum_rows() + " rows by its footer but " + totalRows + " in its row groups");
        }
        return new ParquetFooter(metadata, root, leaves, length, footerStart);
    }

    /**
     * Where a column chunk's bytes begin: at its dictionary page if it has one, else at its first
     * data page. Some writers set the dictionary page offset to 0 for "none".
     */
    public static long chunkStart(ColumnMetaData metadata)
    {
        long start = metadata.getData_page_offset();
        if (metadata.isSetDictionary_page_offset() && metadata.getDictionary_page_offset() > 0 && metadata.getDictionary_page_offset() < start) {
            start = metadata.getDictionary_page_offset();
        }
        return start;
    }

    /**
     * Every writer gives each column chunk bytes of its own. Chunks that overlap mean a changed
     * offset or size, and reading one would decode another column's pages as its own (which may
     * even parse as pages of an unsupported encoding instead of failing as corrupt).
     */
    private static void checkDisjoint(List<ChunkRange> ranges, String file)
            throws ParquetCorruptionException
    {
        List<ChunkRange> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(ChunkRange::start));
        for (int i = 1; i < sorted.size(); i++) {
            ChunkRange previous = sorted.get(i - 1);
            ChunkRange next = sorted.get(i);
            if (next.start() < previous.start() + previous.size()) {
                throw new ParquetCorruptionException("File " + file + " has overlapping column chunks: " + previous.column() + " at " + previous.start() + " (" + previous.size()
                        + " bytes) and " + next.column() + " at " + next.start());
            }
        }
    }

    private record ChunkRange(long start, long size, String column) {}

    /**
     * A file with a plaintext footer and encrypted columns names the algorithm in its footer and
     * the keys in its columns' metadata; one without the other is a footer whose bytes changed.
     */
    private static void checkEncryption(FileMetaData metadata, String file)
            throws ParquetCorruptionException, ParquetUnsupportedException
    {
        boolean encryptedColumns = false;
        if (metadata.getRow_groups() != null) {
            for (RowGroup rowGroup : metadata.getRow_groups()) {
                for (ColumnChunk column : rowGroup.getColumns() == null ? List.<ColumnChunk>of() : rowGroup.getColumns()) {
                    encryptedColumns |= column.isSetCrypto_metadata() || column.isSetEncrypted_column_metadata();
                }
            }
        }
        if (metadata.isSetEncryption_algorithm() && encryptedColumns) {
            throw new ParquetUnsupportedException("File " + file + " uses Parquet modular encryption, which is not supported");
        }
        if (metadata.isSetEncryption_algorithm()) {
            throw new ParquetCorruptionException("File " + file + " names an encryption algorithm in its footer but has no encrypted column");
        }
        if (encryptedColumns) {
            throw new ParquetCorruptionException("File " + file + " has encrypted columns but its footer names no encryption algorithm");
        }
    }

    /**
     * A column chunk's metadata repeats its column's path and type: a chunk that disagrees with
     * the schema belongs to no column of it.
     */
    private static void checkChunk(ColumnMetaData metadata, SchemaNode leaf, String file)
            throws ParquetCorruptionException
    {
        if (metadata.getType() != leaf.element().getType()) {
            throw new ParquetCorruptionException("File " + file + " column " + leaf.path() + " has type " + metadata.getType() + " in its chunk but " + leaf.element().getType() + " in the schema");
        }
        List<String> path = metadata.getPath_in_schema();
        if (path == null || !path.equals(leaf.pathNames())) {
            throw new ParquetCorruptionException("File " + file + " has a column chunk for " + (path == null ? "no path" : String.join(".", path)) + " where the schema has column " + leaf.path());
        }
        if (metadata.getCodec() == null) {
            throw new ParquetCorruptionException("File " + file + " column " + leaf.path() + " has an unknown compression codec");
        }
        if (metadata.getNum_values() < 0 || metadata.getTotal_compressed_size() < 0 || metadata.getTotal_uncompressed_size() < 0) {
            throw new ParquetCorruptionException("File " + file + " column " + leaf.path() + " has a negative value count or size in its chunk");
        }
    }

    private static SchemaNode buildNode(List<SchemaElement> elements, int[] cursor, int parentDefinition, int parentRepetition, List<SchemaNode> leaves, List<String> parentPath, String file,
            boolean isRoot)
            throws ParquetCorruptionException
    {
        if (parentPath.size() > MAX_SCHEMA_DEPTH) {
            throw new ParquetCorruptionException("File " + file + " has a schema nested deeper than " + MAX_SCHEMA_DEPTH + " levels");
        }
        if (cursor[0] >= elements.size()) {
            throw new ParquetCorruptionException("File " + file + " has a schema group with more children than schema elements");
        }
        SchemaElement element = elements.get(cursor[0]++);
        if (element == null || element.getName() == null) {
            throw new ParquetCorruptionException("File " + file + " has a schema element without a name");
        }
        List<String> path = parentPath;
        int definition = parentDefinition;
        int repetition = parentRepetition;
        if (!isRoot) {
            path = new ArrayList<>(parentPath);
            path.add(element.getName());
            // the format requires a repetition on every field but the root; an unknown value reads as none
            if (!element.isSetRepetition_type()) {
                throw new ParquetCorruptionException("File " + file + " has schema field " + String.join(".", path) + " without a valid repetition");
            }
            FieldRepetitionType type = element.getRepetition_type();
            if (type == FieldRepetitionType.OPTIONAL) {
                definition++;
            }
            else if (type == FieldRepetitionType.REPEATED) {
                definition++;
                repetition++;
            }
        }
        int childCount = element.isSetNum_children() ? element.getNum_children() : 0;
        if (isRoot || childCount > 0) {
            if (childCount <= 0 || childCount > elements.size() - cursor[0]) {
                throw new ParquetCorruptionException("File " + file + " has schema group " + element.getName() + " with an invalid child count " + childCount);
            }
            if (element.isSetType()) {
                throw new ParquetCorruptionException("File " + file + " has schema group " + element.getName() + " with a physical type " + element.getType());
            }
            List<SchemaNode> children = new ArrayList<>(childCount);
            Set<Integer> fieldIds = new HashSet<>();
            for (int i = 0; i < childCount; i++) {
                SchemaNode child = buildNode(elements, cursor, definition, repetition, leaves, path, file, false);
                // columns are found by field id: two siblings with one id make the look-up ambiguous
                if (child.hasFieldId() && !fieldIds.add(child.fieldId())) {
                    throw new ParquetCorruptionException("File " + file + " has two schema fields with field id " + child.fieldId() + " in group " + (isRoot ? element.getName() : String.join(".", path)));
                }
                children.add(child);
            }
            return new SchemaNode(element, definition, repetition, children, -1, path);
        }
        if (!element.isSetType()) {
            throw new ParquetCorruptionException("File " + file + " has schema column " + element.getName() + " without a physical type");
        }
        if (element.getType() == Type.FIXED_LEN_BYTE_ARRAY && (!element.isSetType_length() || element.getType_length() <= 0)) {
            throw new ParquetCorruptionException("File " + file + " has FIXED_LEN_BYTE_ARRAY column " + element.getName() + " without a positive length");
        }
        SchemaNode leaf = new SchemaNode(element, definition, repetition, List.of(), leaves.size(), path);
        leaves.add(leaf);
        return leaf;
    }

    /**
     * Reads a thrift compact structure from {@code bytes[offset, offset + length)} and returns
     * the number of bytes it used.
     */
    public static int readThrift(TBase<?, ?> target, byte[] bytes, int offset, int length, String file, String what)
            throws ParquetCorruptionException
    {
        try {
            TConfiguration configuration = new TConfiguration(Math.max(length, 1), Math.max(length, 1), 64);
            ByteArrayTransport transport = new ByteArrayTransport(configuration, bytes, offset, length);
            TCompactProtocol protocol = new TCompactProtocol(transport, length, length);
            target.read(protocol);
            return transport.position() - offset;
        }
        catch (Exception | StackOverflowError e) {
            throw new ParquetCorruptionException("File " + file + " has a corrupt " + what + ": " + e.getMessage(), e);
        }
    }

    private static boolean regionEquals(byte[] bytes, int offset, byte[] expected)
    {
        for (int i = 0; i < expected.length; i++) {
            if (bytes[offset + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }
}
