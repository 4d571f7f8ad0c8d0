package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

import java.util.ArrayList;
import java.util.List;

/**
 * The uncompressed last section of an ORC file, before its final length byte: how long the
 * footer and metadata sections are, the compression of everything else, and the format version.
 *
 * @param compression the postscript's {@code CompressionKind} number (ORC's enum; unknown numbers
 * are kept, for the message that rejects them)
 * @param version the file's format version, e.g. [0, 12]
 * @param writerVersion the writer's fixes (ORC's {@code WriterVersion} id), 0 when absent
 */
record PostScript(long footerLength, long compression, long compressionBlockSize, List<Integer> version, long metadataLength, int writerVersion, String magic)
{
    static final String MAGIC = "ORC";

    PostScript
    {
        version = List.copyOf(version);
    }

    static PostScript parse(ProtobufReader message)
    {
        long footerLength = 0;
        long compression = 0;
        // ORC's default when a writer leaves it out
        long blockSize = 256 * 1024;
        List<Integer> version = new ArrayList<>();
        long metadataLength = 0;
        int writerVersion = 0;
        String magic = null;
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> footerLength = message.readUnsigned();
                case 2 -> compression = message.readUnsigned();
                case 3 -> blockSize = message.readUnsigned();
                case 4 -> {
                    LongList numbers = new LongList();
                    message.readUnsignedRepeated(numbers);
                    for (long number : numbers.toArray()) {
                        if (number > Integer.MAX_VALUE || version.size() > 16) {
                            throw new CorruptDataException("Postscript version is invalid");
                        }
                        version.add((int) number);
                    }
                }
                case 5 -> metadataLength = message.readUnsigned();
                case 6 -> writerVersion = message.readUnsignedInt();
                case 8000 -> magic = message.readString();
                default -> message.skip();
            }
        }
        return new PostScript(footerLength, compression, blockSize, version, metadataLength, writerVersion, magic);
    }
}
