package io.tarn.trino;

import io.airlift.configuration.ConfigPropertyMetadata;
import io.airlift.configuration.ConfigurationFactory;
import io.tarn.storage.fs.s3.S3Settings;
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
    private static final String NATIVE_S3_ENABLED = "fs.native-s3.enabled";

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
        return new TarnConnector(catalogName, tarnConfig, storageProperties(config), context.getTypeManager());
    }

    /**
     * The properties that say how to reach the warehouse's object store: the {@code s3.*}
     * settings, spelled as Trino's native S3 file system or as Paimon spells them
     * ({@link S3Settings}), and {@code fs.native-s3.enabled}, accepted so that a Paimon catalog
     * file works with only {@code connector.name} changed.
     */
    static Map<String, String> storageProperties(Map<String, String> properties)
    {
        return properties.entrySet().stream()
                .filter(entry -> isStorageProperty(entry.getKey()))
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static boolean isStorageProperty(String name)
    {
        return S3Settings.PROPERTY_NAMES.contains(name) || name.equals(NATIVE_S3_ENABLED);
    }

    static TarnConfig bind(String catalogName, Map<String, String> properties)
    {
        Map<String, String> configProperties = properties.entrySet().stream()
                .filter(entry -> !isStorageProperty(entry.getKey()))
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
        ConfigurationFactory factory = new ConfigurationFactory(configProperties);
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
        Set<String> unused = new TreeSet<>(configProperties.keySet());
        unused.removeAll(used);
        if (!unused.isEmpty()) {
            throw new TrinoException(CONFIGURATION_INVALID, "Unknown properties of Tarn catalog '%s': %s (known: warehouse, metastore, tarn.*, s3.endpoint, s3.region, s3.path-style-access, s3.aws-access-key, s3.aws-secret-key, s3.allow-unsafe-commits, s3.exclusive-create)"
                    .formatted(catalogName, String.join(", ", unused)));
        }
        return config;
    }
}
