package io.tarn.trino;

import io.airlift.configuration.ConfigPropertyMetadata;
import io.airlift.configuration.ConfigurationFactory;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static io.trino.spi.StandardErrorCode.CONFIGURATION_INVALID;
import static java.util.Objects.requireNonNull;

/**
 * Builds the connector by hand, without Guice: the catalog properties bind to {@link TarnConfig}
 * through Airlift's configuration factory, which also validates them; a property no setting uses
 * is an error rather than silently ignored.
 */
public class TarnConnectorFactory
        implements ConnectorFactory
{
    public static final String NAME = "tarn";

    @Override
    public String getName()
    {
        return NAME;
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        requireNonNull(catalogName, "catalogName is null");
        requireNonNull(config, "config is null");
        TarnConfig tarnConfig = bind(catalogName, config);
        return new TarnConnector(catalogName, tarnConfig, context.getTypeManager());
    }

    static TarnConfig bind(String catalogName, Map<String, String> properties)
    {
        ConfigurationFactory factory = new ConfigurationFactory(properties);
        TarnConfig config;
        try {
            config = factory.build(TarnConfig.class);
        }
        catch (RuntimeException e) {
            throw new TrinoException(CONFIGURATION_INVALID, "Invalid configuration of Tarn catalog '%s': %s".formatted(catalogName, e.getMessage()), e);
        }
        Set<String> used = factory.getUsedProperties().stream()
                .map(ConfigPropertyMetadata::name)
                .collect(Collectors.toSet());
        Set<String> unused = new TreeSet<>(properties.keySet());
        unused.removeAll(used);
        if (!unused.isEmpty()) {
            throw new TrinoException(CONFIGURATION_INVALID, "Unknown properties of Tarn catalog '%s': %s (known: warehouse, metastore, tarn.*)"
                    .formatted(catalogName, String.join(", ", unused)));
        }
        return config;
    }
}
