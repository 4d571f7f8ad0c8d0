package io.tarn.index.fileindex;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The file indexes a table's options ask writers to build, as Paimon reads them
 * ({@code FileIndexOptions}): {@code file-index.<type>.columns = c1,c2,m[key]} names the
 * columns ({@code m[key]} indexes the value under {@code key} of map column {@code m}), and
 * {@code file-index.<type>.<column>.<option>} sets an option of one column's index; for a map
 * key the options of the map column apply first, then those of {@code m[key]}.
 */
public final class FileIndexOptions
{
    public static final String PREFIX = "file-index.";
    public static final String COLUMNS_SUFFIX = ".columns";
    public static final String IN_MANIFEST_THRESHOLD = "file-index.in-manifest-threshold";
    public static final long DEFAULT_IN_MANIFEST_THRESHOLD = 500;
    public static final String READ_ENABLED = "file-index.read.enabled";

    private FileIndexOptions() {}

    /**
     * One index to build: of {@code type} over {@code column}, or over the values of
     * {@code mapKey} when the column is a map.
     */
    public record IndexSpec(String column, Optional<String> mapKey, String type, Map<String, String> options)
    {
        public IndexSpec
        {
            requireNonNull(column, "column is null");
            requireNonNull(mapKey, "mapKey is null");
            requireNonNull(type, "type is null");
            options = Map.copyOf(requireNonNull(options, "options is null"));
        }

        /**
         * The column name the index is stored under in the container.
         */
        public String indexColumn()
        {
            return mapKey.map(key -> mapKeyColumn(column, key)).orElse(column);
        }
    }

    /**
     * The name a map key's index is stored under: {@code m[key]}.
     */
    public static String mapKeyColumn(String mapColumn, String key)
    {
        return mapColumn + "[" + key + "]";
    }

    /**
     * The indexes configured by {@code tableOptions}, in option order.
     *
     * @throws IllegalArgumentException if a column list has an empty name, or an option names a
     * column its index type does not list
     */
    public static List<IndexSpec> parse(Map<String, String> tableOptions)
    {
        Map<List<String>, Map<String, String>> specs = new LinkedHashMap<>();
        Map<List<String>, Map<String, String>> mapColumnOptions = new LinkedHashMap<>();
        for (Map.Entry<String, String> option : tableOptions.entrySet()) {
            String key = option.getKey();
            if (!key.startsWith(PREFIX) || !key.endsWith(COLUMNS_SUFFIX)) {
                continue;
            }
            String type = key.substring(PREFIX.length(), key.length() - COLUMNS_SUFFIX.length());
            for (String name : option.getValue().split(",")) {
                String column = name.trim();
                if (column.isEmpty()) {
                    throw new IllegalArgumentException("Option " + key + " has an empty column name: '" + option.getValue() + "'");
                }
                specs.putIfAbsent(List.of(type, column), new LinkedHashMap<>());
                mapColumn(column).ifPresent(mapColumn -> mapColumnOptions.putIfAbsent(List.of(type, mapColumn), new LinkedHashMap<>()));
            }
        }
        for (Map.Entry<String, String> option : tableOptions.entrySet()) {
            String key = option.getKey();
            if (!key.startsWith(PREFIX) || key.endsWith(COLUMNS_SUFFIX)) {
                continue;
            }
            String[] parts = key.substring(PREFIX.length()).split("\\.");
            if (parts.length != 3) {
                continue;
            }
            List<String> target = List.of(parts[0], parts[1]);
            Map<String, String> options = specs.containsKey(target) ? specs.get(target) : mapColumnOptions.get(target);
            if (options == null) {
                throw new IllegalArgumentException("Option " + key + " is for column " + parts[1] + ", which " + PREFIX + parts[0] + COLUMNS_SUFFIX + " does not list");
            }
            options.put(parts[2], option.getValue());
        }
        List<IndexSpec> result = new ArrayList<>();
        for (Map.Entry<List<String>, Map<String, String>> spec : specs.entrySet()) {
            String type = spec.getKey().get(0);
            String column = spec.getKey().get(1);
            Optional<String> mapColumn = mapColumn(column);
            if (mapColumn.isPresent()) {
                Map<String, String> options = new LinkedHashMap<>(mapColumnOptions.get(List.of(type, mapColumn.get())));
                options.putAll(spec.getValue());
                String mapKey = column.substring(mapColumn.get().length() + 1, column.length() - 1);
                result.add(new IndexSpec(mapColumn.get(), Optional.of(mapKey), type, options));
            }
            else {
                result.add(new IndexSpec(column, Optional.empty(), type, spec.getValue()));
            }
        }
        return List.copyOf(result);
    }

    private static Optional<String> mapColumn(String column)
    {
        int open = column.indexOf('[');
        return open != -1 && column.endsWith("]") ? Optional.of(column.substring(0, open)) : Optional.empty();
    }
}
