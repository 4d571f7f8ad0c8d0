package io.tarn.jni;

import io.tarn.storage.catalog.Warehouse;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The warehouses C callers have opened, kept for the life of the process: an object store's
 * client holds a connection pool, which a scan per call must not build again (nor leak).
 */
final class OpenWarehouses
{
    private static final Map<Key, Warehouse> OPEN = new ConcurrentHashMap<>();

    private OpenWarehouses() {}

    /**
     * @throws IllegalArgumentException if the location or a setting is not valid
     */
    static Warehouse open(String location, Map<String, String> storage)
    {
        return OPEN.computeIfAbsent(new Key(location, Map.copyOf(storage)), key -> Warehouse.open(key.location(), key.storage()));
    }

    private record Key(String location, Map<String, String> storage) {}
}
