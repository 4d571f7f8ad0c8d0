package io.tarn.testing;

import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Rewrites the footer of a Parquet data file in place, changing one thing and keeping the file
 * otherwise well formed (the footer length is written anew), the way a flipped bit or a buggy
 * writer would leave it.
 */
public final class ParquetFooterEdits
{
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private ParquetFooterEdits() {}

    /**
     * Gives the top-level column {@code column} the field id {@code newFieldId}; returns the id
     * it had.
     */
    public static int changeFieldId(Path file, String column, int newFieldId)
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(file);
        if (!Arrays.equals(Arrays.copyOf(bytes, MAGIC.length), MAGIC)) {
            throw new IOException("File " + file + " is not a Parquet file");
        }
        int footerLength = ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        int footerStart = bytes.length - 8 - footerLength;
        FileMetaData metadata = Util.readFileMetaData(new ByteArrayInputStream(bytes, footerStart, footerLength));
        SchemaElement element = metadata.getSchema().stream()
                .filter(candidate -> column.equals(candidate.getName()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("File " + file + " has no column " + column));
        int oldFieldId = element.getField_id();
        element.setField_id(newFieldId);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(bytes, 0, footerStart);
        int newFooterStart = out.size();
        Util.writeFileMetaData(metadata, out);
        int newFooterLength = out.size() - newFooterStart;
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(newFooterLength).array());
        out.write(MAGIC);
        Files.write(file, out.toByteArray());
        return oldFieldId;
    }
}
