package io.tarn.testing;

import java.io.Serializable;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where Apache Paimon's filesystem catalog finds a warehouse: its URI ({@code file:/...} or
 * {@code s3://bucket/prefix}) and the catalog options its file system needs (for S3, Paimon's
 * {@code s3.*} settings, which its {@code paimon-s3} plugin hands to Hadoop's S3A). Serializable,
 * so that a child JVM ({@link PaimonOnS3}) opens the same warehouse.
 */
public record PaimonWarehouse(String uri, Map<String, String> options)
        implements Serializable
{
    public PaimonWarehouse
    {
        requireNonNull(uri, "uri is null");
        options = Map.copyOf(requireNonNull(options, "options is null"));
    }

    public static PaimonWarehouse local(Path directory)
    {
        requireNonNull(directory, "directory is null");
        return new PaimonWarehouse(directory.toAbsolutePath().toUri().toString(), Map.of());
    }

    /**
     * The local directory of a {@code file:} warehouse, which a writer creates before Paimon's
     * catalog opens it; empty for an object store.
     */
    public Optional<Path> localDirectory()
    {
        return uri.startsWith("file:") ? Optional.of(Path.of(URI.create(uri))) : Optional.empty();
    }

    /**
     * The options of Paimon's catalog context: these, and {@code warehouse}.
     */
    public Map<String, String> catalogOptions()
    {
        Map<String, String> catalogOptions = new LinkedHashMap<>(options);
        catalogOptions.put("warehouse", uri);
        return catalogOptions;
    }

    @Override
    public String toString()
    {
        return uri;
    }
}
