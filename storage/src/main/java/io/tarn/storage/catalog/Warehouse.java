package io.tarn.storage.catalog;

import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.fs.s3.S3FileIO;
import io.tarn.storage.fs.s3.S3Settings;

import java.nio.file.Path;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Where a warehouse lives and the file IO that reaches it, from the location every front end
 * takes: a local directory (a path or a {@code file:} URI) or an object-store location
 * ({@code s3://bucket/path}, also {@code s3a://} and {@code oss://}), with the properties that
 * say how to reach the store ({@link S3Settings}).
 *
 * @param location the warehouse root: an absolute, normalized local path, or the object-store
 *         location as written, without a trailing slash
 */
public record Warehouse(String location, FileIO fileIO)
{
    public Warehouse
    {
        requireNonNull(location, "location is null");
        requireNonNull(fileIO, "fileIO is null");
    }

    /**
     * @throws IllegalArgumentException if a property for the object store is not valid
     */
    public static Warehouse open(String location, Map<String, String> properties)
    {
        requireNonNull(location, "location is null");
        requireNonNull(properties, "properties is null");
        if (S3FileIO.handles(location)) {
            String root = location;
            while (root.endsWith("/")) {
                root = root.substring(0, root.length() - 1);
            }
            return new Warehouse(root, new S3FileIO(S3Settings.fromProperties(properties)));
        }
        if (location.contains("://") && !location.startsWith("file:")) {
            throw new IllegalArgumentException("Unsupported warehouse location %s: give a local directory or an object-store location (s3://, s3a://, oss://)".formatted(location));
        }
        String local = location.startsWith("file:") ? Path.of(java.net.URI.create(location)).toString() : location;
        return new Warehouse(Path.of(local).toAbsolutePath().normalize().toString(), new LocalFileIO());
    }

    /**
     * The catalog of this warehouse.
     */
    public FileSystemCatalog catalog()
    {
        return new FileSystemCatalog(fileIO, location);
    }
}
