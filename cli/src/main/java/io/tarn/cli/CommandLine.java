package io.tarn.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The arguments of one subcommand: {@code --name value} options from a known set, and the
 * positional arguments in order.
 */
record CommandLine(Map<String, String> options, List<String> positional)
{
    CommandLine
    {
        options = Map.copyOf(requireNonNull(options, "options is null"));
        positional = List.copyOf(requireNonNull(positional, "positional is null"));
    }

    static CommandLine parse(List<String> arguments, Set<String> knownOptions)
    {
        Map<String, String> options = new HashMap<>();
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
            if (options.put(name, value) != null) {
                throw new UsageException("Option --" + name + " is given twice");
            }
        }
        return new CommandLine(options, positional);
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
