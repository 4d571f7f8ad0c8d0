package io.tarn.storage.read;

import io.tarn.storage.fs.InputFile;
import io.tarn.vector.io.DataFileInput;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * A table's data file on local storage, through the table's file IO, as input of a data file reader.
 */
final class FileIODataInput
        implements DataFileInput
{
    private final InputFile file;
    private long length = -1;

    FileIODataInput(InputFile file)
    {
        this.file = requireNonNull(file, "file is null");
    }

    @Override
    public String name()
    {
        return file.path();
    }

    @Override
    public long length()
            throws IOException
    {
        if (length < 0) {
            length = file.length();
        }
        return length;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException
    {
        file.readFully(position, buffer, offset, length);
    }
}
