package io.tarn.demo;

import java.nio.file.Path;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The command line of {@code ./tarn demo}.
 */
record DemoOptions(Optional<Path> warehouse, Optional<String> query, boolean stop, boolean interactive, int orders, boolean cluster)
{
    static final String USAGE = """
            Usage: ./tarn demo [--warehouse DIR] [--query SQL] [--stop] [--orders N] [--cluster]
              (no option)      write the sample warehouse, start Trino with the Tarn plugin, run the showcase queries, open Trino's CLI
              --cluster        the same over an object store: the sample warehouse in a bucket of an S3-compatible server (S3Proxy),
                               read by a Trino coordinator and a worker (two processes); all three stop at the end
              --warehouse DIR  serve an existing Paimon warehouse (catalog 'tarn') instead of the sample
              --query SQL      run one statement and print its rows as the Trino CLI's CSV output (no header); Trino stays up
              --stop           stop the Trino server left running
              --orders N       scale of the sample warehouse (default %d orders, about 4 line items each)""".formatted(DemoWarehouse.DEFAULT_ORDERS);

    DemoOptions
    {
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(query, "query is null");
    }

    static DemoOptions parse(String[] args)
    {
        Optional<Path> warehouse = Optional.empty();
        Optional<String> query = Optional.empty();
        boolean stop = false;
        boolean interactive = false;
        boolean cluster = false;
        int orders = DemoWarehouse.DEFAULT_ORDERS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--warehouse" -> warehouse = Optional.of(Path.of(value(args, ++i, "--warehouse")).toAbsolutePath().normalize());
                case "--query" -> query = Optional.of(value(args, ++i, "--query"));
                case "--stop" -> stop = true;
                case "--cluster" -> cluster = true;
                // passed by ./tarn when stdin and stdout are terminals
                case "--interactive" -> interactive = true;
                case "--orders" -> {
                    String value = value(args, ++i, "--orders");
                    try {
                        orders = Integer.parseInt(value);
                    }
                    catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--orders needs a whole number: " + value);
                    }
                    if (orders <= 0) {
                        throw new IllegalArgumentException("--orders must be positive: " + value);
                    }
                }
                default -> throw new IllegalArgumentException("Unknown option: " + args[i]);
            }
        }
        if (stop && (query.isPresent() || warehouse.isPresent())) {
            throw new IllegalArgumentException("--stop takes no other option");
        }
        if (cluster && (stop || query.isPresent() || warehouse.isPresent())) {
            throw new IllegalArgumentException("--cluster takes only --orders");
        }
        return new DemoOptions(warehouse, query, stop, interactive, orders, cluster);
    }

    private static String value(String[] args, int index, String option)
    {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }
}
