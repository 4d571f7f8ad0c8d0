package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.io.DataFileInput;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The parsed and checked tail of an ORC file. The file is laid out as
 * <pre>
 * "ORC" | stripe 0 | ... | stripe n-1 | metadata | footer | postscript | postscript length (1 byte)
 * </pre>
 * where the postscript is never compressed and the metadata (stripe statistics) and footer are
 * compressed with the file's codec. Only the postscript and footer are parsed here; the metadata
 * is kept as stored and parsed by the pruning that needs it.
 * <p>
 * Trust contract: the lengths of the sections are checked against the file, the stripes against
 * the body and each other (in order, not overlapping, row counts adding up to the footer's), the
 * type tree for shape (pre-order ids, the number of children each kind has). Violations are
 * {@link DataFileCorruptionException}s naming the file; an unknown codec, a format version from
 * the future and encryption are {@link DataFileUnsupportedException}s. Immutable once read, so
 * readers of the same file share it.
 */
final class OrcTail
{
    // the most the tail is read with in one go before the sections' lengths are known
    private static final int INITIAL_READ = 16 * 1024;
    // the largest compression block size this reader allocates (ORC's chunk header allows 8 MiB - 1 stored bytes)
    static final int MAX_BLOCK_SIZE = 16 << 20;
    private static final int MAX_SECTION_BYTES = 1 << 30;
    private static final int HEADER_LENGTH = 3;

    private final String file;
    private final PostScript postScript;
    private final OrcCodec.Kind compression;
    private final int blockSize;
    private final FileFooter footer;
    private final byte[] metadata;
    private final long tailLength;

    private OrcTail(String file, PostScript postScript, OrcCodec.Kind compression, int blockSize, FileFooter footer, byte[] metadata, long tailLength)
    {
        this.file = file;
        this.postScript = postScript;
        this.compression = compression;
        this.blockSize = blockSize;
        this.footer = footer;
        this.metadata = metadata;
        this.tailLength = tailLength;
    }

    String file()
    {
        return file;
    }

    PostScript postScript()
    {
        return postScript;
    }

    FileFooter footer()
    {
        return footer;
    }

    /**
     * The bytes of the tail, which reading it fetched from the input.
     */
    long tailLength()
    {
        return tailLength;
    }

    int blockSize()
    {
        return blockSize;
    }

    /**
     * A new codec of the file's compression, or null when the file is not compressed; codecs keep
     * state, so each reader has its own.
     */
    OrcCodec newCodec()
    {
        return compression == OrcCodec.Kind.NONE ? null : new OrcCodec(compression);
    }

    /**
     * The stripe statistics of the metadata section, a list of column statistics (by type id)
     * per stripe; empty when the file has none.
     */
    List<List<ColumnStatistics>> stripeStatistics(OrcCodec codec)
    {
        if (metadata.length == 0) {
            return List.of();
        }
        byte[] bytes = new DecompressedStream("metadata", metadata, 0, metadata.length, codec, blockSize).readAll(MAX_SECTION_BYTES);
        ProtobufReader message = new ProtobufReader(bytes, 0, bytes.length);
        List<List<ColumnStatistics>> stripes = new ArrayList<>();
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            if (field != 1) {
                message.skip();
                continue;
            }
            ProtobufReader stripe = message.readMessage();
            List<ColumnStatistics> columns = new ArrayList<>();
            for (int inner = stripe.nextField(); inner >= 0; inner = stripe.nextField()) {
                if (inner == 1) {
                    columns.add(ColumnStatistics.parse(stripe.readMessage()));
                }
                else {
                    stripe.skip();
                }
            }
            stripes.add(List.copyOf(columns));
        }
        return List.copyOf(stripes);
    }

    static OrcTail read(DataFileInput input)
            throws IOException
    {
        requireNonNull(input, "input is null");
        String file = input.name();
        long length = input.length();
        if (length < HEADER_LENGTH + 2) {
            throw new DataFileCorruptionException("File " + file + " is too short for an ORC file: " + length + " bytes");
        }
        try {
            return read(input, file, length);
        }
        catch (CorruptDataException e) {
            throw new DataFileCorruptionException("File " + file + " has a corrupt ORC tail: " + e.getMessage(), e);
        }
    }

    private static OrcTail read(DataFileInput input, String file, long length)
            throws IOException
    {
        int initial = (int) Math.min(length, INITIAL_READ);
        byte[] buffer = new byte[initial];
        input.readFully(length - initial, buffer, 0, initial);
        long bytesRead = initial;
        int postScriptLength = buffer[initial - 1] & 0xFF;
        if (postScriptLength == 0 || postScriptLength > length - 1 - HEADER_LENGTH) {
            throw new DataFileCorruptionException("File " + file + " has an invalid ORC postscript length " + postScriptLength);
        }
        int postScriptStart = initial - 1 - postScriptLength;
        PostScript postScript;
        try {
            postScript = PostScript.parse(new ProtobufReader(buffer, postScriptStart, postScriptLength));
        }
        catch (CorruptDataException e) {
            throw new DataFileCorruptionException("File " + file + " has a corrupt ORC postscript (is it an ORC file?): " + e.getMessage(), e);
        }
        if (!PostScript.MAGIC.equals(postScript.magic())) {
            // files of Hive 0.11 have no magic in the postscript, only at the start of the file
            byte[] header = new byte[HEADER_LENGTH];
            input.readFully(0, header, 0, HEADER_LENGTH);
            bytesRead += HEADER_LENGTH;
            if (postScript.magic() != null || !PostScript.MAGIC.equals(new String(header, StandardCharsets.US_ASCII))) {
                throw new DataFileCorruptionException("File " + file + " is not an ORC file: its postscript has no ORC magic");
            }
        }
        checkVersion(file, postScript);
        OrcCodec.Kind compression = OrcCodec.Kind.of(postScript.compression())
                .orElseThrow(() -> new DataFileUnsupportedException("File " + file + " uses an unknown ORC compression kind " + postScript.compression()));
        if (!compression.isSupported()) {
            throw new DataFileUnsupportedException("File " + file + " uses ORC compression " + compression + ", which Tarn does not read");
        }
        int blockSize = 0;
        if (compression != OrcCodec.Kind.NONE) {
            if (postScript.compressionBlockSize() <= 0) {
                throw new DataFileCorruptionException("File " + file + " has an invalid compression block size " + postScript.compressionBlockSize());
            }
            if (postScript.compressionBlockSize() > MAX_BLOCK_SIZE) {
                throw new DataFileUnsupportedException("File " + file + " has a compression block size of " + postScript.compressionBlockSize() + " bytes, more than the " + MAX_BLOCK_SIZE + " Tarn reads");
            }
            blockSize = (int) postScript.compressionBlockSize();
        }
        long footerLength = postScript.footerLength();
        long metadataLength = postScript.metadataLength();
        long available = length - 1 - postScriptLength - HEADER_LENGTH;
        if (footerLength <= 0 || footerLength > available || metadataLength > available - footerLength) {
            throw new DataFileCorruptionException("File " + file + " has an ORC footer of " + footerLength + " and metadata of " + metadataLength
                    + " bytes, which do not fit its " + length + " bytes");
        }
        if (footerLength + metadataLength > MAX_SECTION_BYTES) {
            throw new DataFileUnsupportedException("File " + file + " has an ORC footer and metadata of " + (footerLength + metadataLength) + " bytes, more than Tarn reads");
        }
        long tailLength = 1 + postScriptLength + footerLength + metadataLength;
        long metadataStart = length - tailLength;
        byte[] sections;
        int sectionsOffset;
        if (tailLength <= initial) {
            sections = buffer;
            sectionsOffset = (int) (initial - tailLength);
        }
        else {
            sections = new byte[(int) (footerLength + metadataLength)];
            sectionsOffset = 0;
            input.readFully(metadataStart, sections, 0, sections.length);
            bytesRead += sections.length;
        }
        OrcCodec codec = compression == OrcCodec.Kind.NONE ? null : new OrcCodec(compression);
        FileFooter footer;
        try {
            byte[] footerBytes = new DecompressedStream("footer", sections, sectionsOffset + (int) metadataLength, (int) footerLength, codec, blockSize).readAll(MAX_SECTION_BYTES);
            footer = FileFooter.parse(new ProtobufReader(footerBytes, 0, footerBytes.length));
        }
        finally {
            if (codec != null) {
                codec.close();
            }
        }
        byte[] metadata = new byte[(int) metadataLength];
        System.arraycopy(sections, sectionsOffset, metadata, 0, metadata.length);
        if (footer.encrypted()) {
            throw new DataFileUnsupportedException("File " + file + " has encrypted ORC columns, which Tarn does not read");
        }
        checkStripes(file, footer, metadataStart);
        checkTypes(file, footer.types());
        return new OrcTail(file, postScript, compression, blockSize, footer, metadata, bytesRead);
    }

    private static void checkVersion(String file, PostScript postScript)
            throws DataFileUnsupportedException
    {
        List<Integer> version = postScript.version();
        // [0, 11] and [0, 12] are ORCv1; ORCv2 (and the unstable pre-2.0 [1, 9999]) encode differently
        if (!version.isEmpty() && version.get(0) > 0) {
            throw new DataFileUnsupportedException("File " + file + " is ORC version " + version + ", which Tarn does not read (it reads version 0.11 and 0.12)");
        }
    }

    private static void checkStripes(String file, FileFooter footer, long metadataStart)
            throws DataFileCorruptionException, DataFileUnsupportedException
    {
        long previousEnd = HEADER_LENGTH;
        long rows = 0;
        for (int i = 0; i < footer.stripes().size(); i++) {
            StripeInformation stripe = footer.stripes().get(i);
            long available = metadataStart - stripe.offset();
            if (stripe.offset() < previousEnd || stripe.offset() > metadataStart || stripe.indexLength() > available
                    || stripe.dataLength() > available - stripe.indexLength() || stripe.footerLength() > available - stripe.indexLength() - stripe.dataLength()
                    || stripe.footerLength() == 0) {
                throw new DataFileCorruptionException("File " + file + " stripe " + i + " (offset " + stripe.offset() + ", index " + stripe.indexLength() + ", data " + stripe.dataLength()
                        + ", footer " + stripe.footerLength() + " bytes) lies outside the file body or overlaps the stripe before it");
            }
            if (stripe.numberOfRows() > Integer.MAX_VALUE) {
                throw new DataFileUnsupportedException("File " + file + " stripe " + i + " has " + stripe.numberOfRows() + " rows, more than Tarn reads in one stripe");
            }
            previousEnd = stripe.end();
            rows += stripe.numberOfRows();
            if (rows < 0) {
                throw new DataFileCorruptionException("File " + file + " has more rows than a long counts");
            }
        }
        if (rows != footer.numberOfRows()) {
            throw new DataFileCorruptionException("File " + file + " has " + footer.numberOfRows() + " rows by its footer, but its stripes hold " + rows);
        }
    }

    private static void checkTypes(String file, List<OrcType> types)
            throws DataFileCorruptionException
    {
        if (types.isEmpty() || types.get(0).kind() != OrcType.Kind.STRUCT) {
            throw new DataFileCorruptionException("File " + file + " has no ORC struct at the root of its type tree");
        }
        boolean[] hasParent = new boolean[types.size()];
        for (int id = 0; id < types.size(); id++) {
            OrcType type = types.get(id);
            int expected = switch (type.kind()) {
                case LIST -> 1;
                case MAP -> 2;
                case STRUCT, UNION -> -1;
                default -> 0;
            };
            if (expected >= 0 && type.subtypes().size() != expected) {
                throw new DataFileCorruptionException("File " + file + " ORC type " + id + " (" + type.kind() + ") has " + type.subtypes().size() + " children, expected " + expected);
            }
            if (type.kind() == OrcType.Kind.STRUCT && type.fieldNames().size() != type.subtypes().size()) {
                throw new DataFileCorruptionException("File " + file + " ORC struct " + id + " has " + type.subtypes().size() + " children but " + type.fieldNames().size() + " field names");
            }
            for (int child : type.subtypes()) {
                // pre-order: a child comes after its parent, and every node but the root has one parent
                if (child <= id || child >= types.size() || hasParent[child]) {
                    throw new DataFileCorruptionException("File " + file + " ORC type " + id + " has an invalid child " + child);
                }
                hasParent[child] = true;
            }
            if (type.kind() == OrcType.Kind.DECIMAL && (type.precision() > 38 || type.scale() > 38 || (type.precision() > 0 && type.scale() > type.precision()))) {
                throw new DataFileCorruptionException("File " + file + " ORC type " + id + " is DECIMAL(" + type.precision() + ", " + type.scale() + ")");
            }
        }
        for (int id = 1; id < types.size(); id++) {
            if (!hasParent[id]) {
                throw new DataFileCorruptionException("File " + file + " ORC type " + id + " is not in the type tree");
            }
        }
    }
}
