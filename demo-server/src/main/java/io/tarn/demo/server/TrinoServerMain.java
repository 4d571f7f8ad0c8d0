package io.tarn.demo.server;

import io.trino.server.Server;

import java.util.Objects;

/**
 * The main class of the assembled server (bin/launcher.properties): what the main class of Trino's
 * own tarball does, starting {@link Server} with the version this jar's manifest names.
 */
public final class TrinoServerMain
{
    private TrinoServerMain() {}

    public static void main(String[] args)
    {
        String version = TrinoServerMain.class.getPackage().getImplementationVersion();
        new Server().start(Objects.requireNonNullElse(version, "unknown"));
    }
}
