package io.tarn.demo;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Runs Trino's own command-line client (the executable {@code trino-cli} jar) against a server:
 * one statement in batch mode, or an interactive session on this process's terminal.
 */
public final class TrinoCli
{
    private final TrinoInstallation installation;
    private final URI server;
    private final String catalog;
    private final Optional<String> schema;

    public TrinoCli(TrinoInstallation installation, URI server, String catalog, Optional<String> schema)
    {
        this.installation = requireNonNull(installation, "installation is null");
        this.server = requireNonNull(server, "server is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.schema = requireNonNull(schema, "schema is null");
    }

    /**
     * The result of one batch run: the CLI's exit code and what it printed.
     */
    public record Result(int exitCode, String output, String errors)
    {
        public Result
        {
            requireNonNull(output, "output is null");
            requireNonNull(errors, "errors is null");
        }
    }

    /**
     * Runs {@code sql} with {@code --execute} and the given {@code --output-format} (for example
     * {@code CSV}: quoted values, no header) and returns what the CLI printed.
     */
    public Result execute(String sql, String outputFormat)
            throws IOException
    {
        List<String> command = command();
        command.add("--output-format=" + outputFormat);
        command.add("--execute=" + sql);
        Process process = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> readFully(process.getErrorStream()));
        String output = readFully(process.getInputStream());
        try {
            return new Result(process.waitFor(), output, errors.join());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("Interrupted while the Trino CLI ran: " + sql, e);
        }
    }

    /**
     * Opens the CLI on this process's terminal and returns its exit code when the user quits.
     */
    public int interactive()
            throws IOException
    {
        List<String> command = command();
        // Ctrl-C at the terminal reaches the whole foreground process group: the CLI cancels its
        // query, and this process must not die under it
        Signal interrupt = new Signal("INT");
        SignalHandler previous = Signal.handle(interrupt, signal -> {});
        try {
            Process process = new ProcessBuilder(command).inheritIO().start();
            try {
                return process.waitFor();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new IOException("Interrupted while the Trino CLI ran", e);
            }
        }
        finally {
            Signal.handle(interrupt, previous);
        }
    }

    private List<String> command()
    {
        List<String> command = new ArrayList<>();
        command.add(installation.java().toString());
        // JLine's terminal support loads a native library
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-jar");
        command.add(installation.cliJar().toString());
        command.add("--server=" + server);
        command.add("--catalog=" + catalog);
        schema.ifPresent(name -> command.add("--schema=" + name));
        command.add("--user=tarn");
        return command;
    }

    private static String readFully(InputStream stream)
    {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            return "(cannot read the CLI's output: " + e.getMessage() + ")";
        }
    }
}
