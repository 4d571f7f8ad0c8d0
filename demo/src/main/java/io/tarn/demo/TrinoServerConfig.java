package io.tarn.demo;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What a {@link TrinoServer} is started with: its own directory (etc/, plugin/, data/ are laid out
 * below it), the plugin directories to install by name, the catalogs to create (name to catalog
 * properties), the JVM heap, any further JVM options, and for a worker the coordinator it joins.
 */
public record TrinoServerConfig(Path directory, Map<String, Path> plugins, Map<String, Map<String, String>> catalogs, String heap, List<String> jvmOptions, Optional<URI> coordinator)
{
    public static final String DEFAULT_HEAP = "1G";

    public TrinoServerConfig
    {
        requireNonNull(directory, "directory is null");
        plugins = Map.copyOf(requireNonNull(plugins, "plugins is null"));
        catalogs = copyCatalogs(requireNonNull(catalogs, "catalogs is null"));
        requireNonNull(heap, "heap is null");
        jvmOptions = List.copyOf(requireNonNull(jvmOptions, "jvmOptions is null"));
        requireNonNull(coordinator, "coordinator is null");
        if (!heap.matches("[0-9]+[MG]")) {
            throw new IllegalArgumentException("Heap size must look like 512M or 2G: " + heap);
        }
    }

    public static TrinoServerConfig in(Path directory)
    {
        return new TrinoServerConfig(directory.toAbsolutePath(), Map.of(), Map.of(), DEFAULT_HEAP, List.of(), Optional.empty());
    }

    public TrinoServerConfig withPlugin(String name, Path pluginDirectory)
    {
        Map<String, Path> newPlugins = new LinkedHashMap<>(plugins);
        newPlugins.put(name, pluginDirectory.toAbsolutePath());
        return new TrinoServerConfig(directory, newPlugins, catalogs, heap, jvmOptions, coordinator);
    }

    public TrinoServerConfig withCatalog(String name, Map<String, String> properties)
    {
        Map<String, Map<String, String>> newCatalogs = new LinkedHashMap<>(catalogs);
        newCatalogs.put(name, properties);
        return new TrinoServerConfig(directory, plugins, newCatalogs, heap, jvmOptions, coordinator);
    }

    /**
     * A catalog of the Tarn connector over a filesystem warehouse.
     */
    public TrinoServerConfig withTarnCatalog(String name, Path warehouse)
    {
        return withCatalog(name, tarnCatalog(warehouse));
    }

    /**
     * The properties of a catalog of the Tarn connector over a filesystem warehouse.
     */
    public static Map<String, String> tarnCatalog(Path warehouse)
    {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("connector.name", "tarn");
        properties.put("warehouse", warehouse.toAbsolutePath().toString());
        return properties;
    }

    public TrinoServerConfig withHeap(String newHeap)
    {
        return new TrinoServerConfig(directory, plugins, catalogs, newHeap, jvmOptions, coordinator);
    }

    /**
     * Adds JVM options after the standard ones (for example {@code -XX:TieredStopAtLevel=1}, which
     * starts a short-lived test server sooner on few cores).
     */
    public TrinoServerConfig withJvmOptions(List<String> options)
    {
        List<String> newOptions = new ArrayList<>(jvmOptions);
        newOptions.addAll(options);
        return new TrinoServerConfig(directory, plugins, catalogs, heap, newOptions, coordinator);
    }

    /**
     * The same server as a worker that joins the coordinator at {@code coordinatorUri}, in a
     * directory of its own.
     */
    public TrinoServerConfig asWorkerOf(URI coordinatorUri, Path workerDirectory)
    {
        return new TrinoServerConfig(workerDirectory.toAbsolutePath(), plugins, catalogs, heap, jvmOptions, Optional.of(coordinatorUri));
    }

    public boolean isWorker()
    {
        return coordinator.isPresent();
    }

    private static Map<String, Map<String, String>> copyCatalogs(Map<String, Map<String, String>> catalogs)
    {
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        catalogs.forEach((name, properties) -> copy.put(name, Map.copyOf(new LinkedHashMap<>(properties))));
        return Collections.unmodifiableMap(copy);
    }
}
