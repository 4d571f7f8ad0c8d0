package io.tarn.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The arguments of one subcommand: {@code --name value} options from a known set, the
 * positional arguments in order, and the storage settings of repeatable {@code --conf KEY=VALUE}
 * options (such as {@code s3.endpoint}), allowed before or after the table name.
 */
record CommandLine(Map<String, String> options, List<String> positional, Map<String, String> configuration)
{
    static final String CONFIGURATION = "conf";

    CommandLine
    {
        options = Map.copyOf(requireNonNull(options, "options is null"));
        positional = List.copyOf(requireNonNull(positional, "positional is null"));
        configuration = Map.copyOf(requireNonNull(configuration, "configuration is null"));
    }

    static CommandLine parse(List<String> arguments, Set<String> knownOptions)
    {
        Map<String, String> options = new HashMap<>();
        Map<String, String> configuration = new HashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            if (!argument.startsWith("--")) {
                positional.add(argument);
                continue;
            }
            String name = argument.substring(2);
            String value;
            int equals = name.indexOf('=');
            if (equals >= 0) {
                value = name.substring(equals + 1);
                name = name.substring(0, equals);
            }
            else {
                if (i + 1 >= arguments.size()) {
                    throw new UsageException("Option --" + name + " needs a value");
                }
                value = arguments.get(++i);
            }
            if (!knownOptions.contains(name)) {
                throw new UsageException("Unknown option --" + name + "; known options: --" + String.join(", --", knownOptions.stream().sorted().toList()));
            }
            if (name.equals(CONFIGURATION)) {
                int separator = value.indexOf('=');
                if (separator <= 0) {
                    throw new UsageException("Option --conf needs KEY=VALUE, got: " + value);
                }
                if (configuration.put(value.substring(0, separator).strip(), value.substring(separator + 1)) != null) {
                    throw new UsageException("Setting " + value.substring(0, separator).strip() + " is given twice with --conf");
                }
            }
            else if (options.put(name, value) != null) {
                throw new UsageException("Option --" + name + " is given twice");
            }
        }
        return new CommandLine(options, positional, configuration);
    }

    Optional<String> option(String name)
    {
        return Optional.ofNullable(options.get(name));
    }

    String requiredOption(String name)
    {
        return option(name).orElseThrow(() -> new UsageException("Option --" + name + " is required"));
    }

    String singlePositional(String what)
    {
        if (positional.size() != 1) {
            throw new UsageException("Expected exactly one " + what + ", got " + positional.size() + ": " + positional);
        }
        return positional.get(0);
    }
}
