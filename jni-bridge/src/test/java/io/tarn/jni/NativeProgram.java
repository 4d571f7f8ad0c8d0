package io.tarn.jni;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Runs the C test program ({@code target/tarn-test}, built from {@code src/test/c}) on a script
 * and parses what it prints: per command the canonical lines it read and its END line.
 */
final class NativeProgram
{
    static final Path TARGET = Path.of(System.getProperty("tarn.jni.target", "target")).toAbsolutePath();
    // small heap and C1 only: these processes read tiny tables and should start fast
    static final String JVM_OPTIONS = "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.io.tmpdir=" + TARGET;

    private NativeProgram() {}

    static String classPath()
    {
        try {
            return TARGET.resolve("classes") + ":" + Files.readString(TARGET.resolve("tarn-classpath.txt")).trim();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, String> environment()
    {
        Map<String, String> environment = new HashMap<>();
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        environment.put("TARN_CLASSPATH", classPath());
        environment.put("TARN_JVM_OPTS", JVM_OPTIONS);
        return environment;
    }

    static Output run(List<String> commands, Map<String, String> environment, String... flags)
    {
        try {
            Path script = Files.createTempFile(TARGET, "tarn-test", ".script");
            Files.writeString(script, String.join("\n", commands) + "\n", StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>();
            command.add(TARGET.resolve("tarn-test").toString());
            command.addAll(List.of(flags));
            command.add(script.toString());
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().remove("TARN_CLASSPATH");
            builder.environment().remove("TARN_JVM_OPTS");
            builder.environment().putAll(environment);
            Path stdout = Files.createTempFile(TARGET, "tarn-test", ".out");
            Path stderr = Files.createTempFile(TARGET, "tarn-test", ".err");
            builder.redirectOutput(stdout.toFile());
            builder.redirectError(stderr.toFile());
            Process process = builder.start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("tarn-test did not finish in 5 minutes");
            }
            Output output = Output.parse(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8), Files.readString(stderr, StandardCharsets.UTF_8));
            Files.delete(script);
            Files.delete(stdout);
            Files.delete(stderr);
            return output;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * One script command: {@code scan NAME WAREHOUSE TABLE VERSION COLUMNS WHERE MODE} and the others
     * of {@code tarn_test.c}, with null for an empty field.
     */
    static String command(String... fields)
    {
        List<String> values = new ArrayList<>();
        for (String value : fields) {
            values.add(value == null ? "" : value);
        }
        return String.join("\t", values);
    }

    record Case(String name, List<String> lines, Map<String, String> end)
    {
        Case
        {
            requireNonNull(name, "name is null");
            lines = List.copyOf(lines);
            end = Map.copyOf(end);
        }

        int status()
        {
            return Integer.parseInt(end.get("status"));
        }

        String error()
        {
            return end.getOrDefault("error", "");
        }

        long value(String key)
        {
            return Long.parseLong(requireNonNull(end.get(key), () -> "END line of " + name + " has no " + key + ": " + end));
        }
    }

    record Output(int exitCode, String init, Map<String, Case> cases, boolean done, String stdout, String stderr)
    {
        static Output parse(int exitCode, String stdout, String stderr)
        {
            Map<String, Case> cases = new LinkedHashMap<>();
            String init = "";
            boolean done = false;
            String current = null;
            List<String> lines = new ArrayList<>();
            for (String line : stdout.split("\n", -1)) {
                if (line.startsWith("INIT ")) {
                    init = line;
                }
                else if (line.startsWith("BEGIN ")) {
                    current = line.substring("BEGIN ".length());
                    lines = new ArrayList<>();
                }
                else if (line.startsWith("R ")) {
                    lines.add(line.substring(2));
                }
                else if (line.startsWith("END ") && current != null) {
                    cases.put(current, new Case(current, lines, endFields(line.substring(("END " + current + " ").length()))));
                    current = null;
                }
                else if (line.equals("DONE")) {
                    done = true;
                }
            }
            return new Output(exitCode, init, cases, done, stdout, stderr);
        }

        Case get(String name)
        {
            return Optional.ofNullable(cases.get(name)).orElseThrow(() -> new AssertionError("No output for " + name + "; stdout:\n" + tail(stdout) + "\nstderr:\n" + tail(stderr)));
        }

        private static String tail(String text)
        {
            return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
        }

        /** key=value pairs; error= takes the rest of the line. */
        private static Map<String, String> endFields(String text)
        {
            Map<String, String> fields = new HashMap<>();
            int errorAt = text.indexOf("error=");
            String plain = errorAt >= 0 ? text.substring(0, errorAt) : text;
            for (String pair : plain.trim().split(" ")) {
                int equals = pair.indexOf('=');
                if (equals > 0) {
                    fields.put(pair.substring(0, equals), pair.substring(equals + 1));
                }
            }
            if (errorAt >= 0) {
                fields.put("error", text.substring(errorAt + "error=".length()));
            }
            return fields;
        }
    }
}
