package io.tarn.demo;

import io.tarn.storage.catalog.Warehouse;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Puts a local directory tree into a bucket through the S3 API, as a writer on a real store
 * would: the server then keeps every object with its ETag, which a copy into its data directory
 * on disk does not give it, and which Tarn uses to know a table's latest snapshot unchanged.
 */
final class BucketUpload
{
    private BucketUpload() {}

    /**
     * Uploads every file below {@code source} to {@code target} ({@code s3://bucket/prefix}),
     * keeping relative paths; returns the bytes uploaded.
     */
    static long upload(Path source, String target, Map<String, String> storeProperties)
            throws IOException
    {
        Warehouse store = Warehouse.open(target, storeProperties);
        try (AutoCloseable ignored = (AutoCloseable) store.fileIO(); Stream<Path> paths = Files.walk(source)) {
            List<Path> files = paths.filter(Files::isRegularFile).toList();
            // a few uploads at a time, on the common pool
            return files.parallelStream().mapToLong(file -> {
                String key = target + "/" + source.relativize(file).toString().replace('\\', '/');
                try (OutputStream out = store.fileIO().newOutputStream(key)) {
                    return Files.copy(file, out);
                }
                catch (IOException e) {
                    throw new UncheckedIOException("Cannot upload " + file + " to " + key, e);
                }
            }).sum();
        }
        catch (UncheckedIOException e) {
            throw e.getCause();
        }
        catch (IOException | RuntimeException e) {
            throw e;
        }
        catch (Exception e) {
            throw new IOException("Cannot close the connection to " + target, e);
        }
    }
}
