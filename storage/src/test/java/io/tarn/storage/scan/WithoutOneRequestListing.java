package io.tarn.storage.scan;

import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.fs.ForwardingFileIO;

import java.util.List;
import java.util.Optional;

/**
 * A file IO that passes everything to another but has no listing in one request, as when a
 * table's metadata files overflow a listing page: tables then find their current version by
 * the {@code LATEST} hint and existence checks.
 */
final class WithoutOneRequestListing
        extends ForwardingFileIO
{
    WithoutOneRequestListing(FileIO delegate)
    {
        super(delegate);
    }

    @Override
    public Optional<List<FileStatus>> listFilesInOneRequest(String pathPrefix)
    {
        return Optional.empty();
    }
}
