package io.tarn.storage.fs.s3;

import io.tarn.storage.MissingFileException;

/**
 * The store answered 404 for an object.
 */
final class S3ObjectMissingException
        extends MissingFileException
{
    private static final long serialVersionUID = 1L;

    S3ObjectMissingException(String path)
    {
        super("File does not exist: " + path);
    }
}
