package io.tarn.storage.manifest;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Decoded manifest files (manifest lists, manifests, index manifests) by path, least recently
 * used first out. Paimon never rewrites a file under the same name, so a decoded file stays right
 * for as long as it is kept; planning a query on a table already planned decodes only the
 * manifests that are new since. The bound is on the files' stored sizes, times a factor for what
 * decoding makes of them: an estimate, not a measure, of the memory held.
 */
public final class ManifestCache
{
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;
    // decoded entries, with their statistics rows and names, take several times their Avro bytes
    private static final int DECODED_BYTES_PER_STORED_BYTE = 8;

    private final long maxBytes;
    private final LinkedHashMap<String, Cached> files = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    private record Cached(List<?> value, long weight) {}

    /**
     * Reads and decodes a stored file.
     */
    @FunctionalInterface
    public interface Loader<T>
    {
        Loaded<T> load()
                throws IOException;
    }

    /**
     * A decoded file and the size it has in storage.
     */
    public record Loaded<T>(List<T> value, long storedBytes)
    {
        public Loaded
        {
            value = List.copyOf(requireNonNull(value, "value is null"));
        }
    }

    /**
     * @param maxBytes 0 to keep nothing
     */
    public ManifestCache(long maxBytes)
    {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes is negative: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    public boolean enabled()
    {
        return maxBytes > 0;
    }

    /**
     * The decoded file at {@code path}, loaded by {@code loader} unless kept. Two threads asking
     * for the same new file may both load it.
     */
    @SuppressWarnings("unchecked")
    public <T> List<T> get(String path, Loader<T> loader)
            throws IOException
    {
        requireNonNull(path, "path is null");
        requireNonNull(loader, "loader is null");
        synchronized (this) {
            Cached cached = files.get(path);
            if (cached != null) {
                return (List<T>) cached.value();
            }
        }
        Loaded<T> loaded = loader.load();
        long weight = Math.max(1, loaded.storedBytes()) * DECODED_BYTES_PER_STORED_BYTE;
        if (weight <= maxBytes) {
            synchronized (this) {
                Cached previous = files.put(path, new Cached(loaded.value(), weight));
                bytes += weight - (previous == null ? 0 : previous.weight());
                evict();
            }
        }
        return loaded.value();
    }

    /**
     * The estimated bytes held.
     */
    public synchronized long bytes()
    {
        return bytes;
    }

    private void evict()
    {
        var eldest = files.entrySet().iterator();
        while (bytes > maxBytes && eldest.hasNext()) {
            Map.Entry<String, Cached> entry = eldest.next();
            bytes -= entry.getValue().weight();
            eldest.remove();
        }
    }
}
