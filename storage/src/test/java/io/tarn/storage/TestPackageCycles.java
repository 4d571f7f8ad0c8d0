package io.tarn.storage;

import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packages of {@code storage} form layers: no package reaches itself through imports, so each
 * can be understood, and later moved or split, without the ones above it.
 */
public class TestPackageCycles
{
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    // imports and fully qualified names of storage classes, also in javadoc links
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.tarn\\.storage(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    @Test
    public void testNoImportCycleBetweenPackages()
            throws IOException
    {
        Map<String, Set<String>> dependencies = dependencies();
        assertThat(dependencies).as("storage packages found under %s", SOURCES.toAbsolutePath()).hasSizeGreaterThan(10);
        for (String start : dependencies.keySet()) {
            assertThat(pathBack(start, dependencies)).as("import cycle through %s", start).isEmpty();
        }
    }

    @Test
    public void testCycleIsFound()
    {
        Map<String, Set<String>> dependencies = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        assertThat(pathBack("a", dependencies)).containsExactly("a", "b", "c", "a");
        assertThat(pathBack("d", dependencies)).isEmpty();
    }

    private static Map<String, Set<String>> dependencies()
            throws IOException
    {
        Map<String, Set<String>> dependencies = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher packageName = PACKAGE.matcher(source);
                assertThat(packageName.find()).as("package of %s", file).isTrue();
                Set<String> used = dependencies.computeIfAbsent(packageName.group(1), ignored -> new TreeSet<>());
                Matcher reference = REFERENCE.matcher(source);
                while (reference.find()) {
                    if (!reference.group(1).equals(packageName.group(1))) {
                        used.add(reference.group(1));
                    }
                }
            }
        }
        return dependencies;
    }

    /**
     * A path of dependencies from {@code start} back to itself, or an empty list.
     */
    private static List<String> pathBack(String start, Map<String, Set<String>> dependencies)
    {
        List<String> path = new ArrayList<>();
        path.add(start);
        return search(start, start, dependencies, path, new HashSet<>()) ? path : List.of();
    }

    private static boolean search(String start, String current, Map<String, Set<String>> dependencies, List<String> path, Set<String> visited)
    {
        for (String next : dependencies.getOrDefault(current, Set.of())) {
            path.add(next);
            if (next.equals(start)) {
                return true;
            }
            if (visited.add(next) && search(start, next, dependencies, path, visited)) {
                return true;
            }
            path.remove(path.size() - 1);
        }
        return false;
    }
}
