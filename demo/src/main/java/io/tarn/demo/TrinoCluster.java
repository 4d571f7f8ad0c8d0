package io.tarn.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * A Trino cluster of two processes on this machine: a coordinator, which also runs tasks, and a
 * worker that joins it. Both serve the same catalogs and plugins.
 */
public final class TrinoCluster
{
    private final TrinoServer coordinator;
    private final TrinoServer worker;

    private TrinoCluster(TrinoServer coordinator, TrinoServer worker)
    {
        this.coordinator = coordinator;
        this.worker = worker;
    }

    /**
     * Starts the coordinator from {@code config}, then a worker in {@code workerDirectory}, and
     * waits until the coordinator counts both nodes active.
     */
    public static TrinoCluster start(TrinoInstallation installation, TrinoServerConfig config, Path workerDirectory, Duration timeout)
            throws IOException
    {
        requireNonNull(config, "config is null");
        TrinoServer coordinator = TrinoServer.start(installation, config, timeout);
        TrinoServer worker = null;
        try {
            worker = TrinoServer.start(installation, config.asWorkerOf(coordinator.uri(), workerDirectory), timeout);
            TrinoCluster cluster = new TrinoCluster(coordinator, worker);
            cluster.awaitNodes(2, timeout);
            return cluster;
        }
        catch (IOException | RuntimeException e) {
            if (worker != null) {
                worker.stop();
            }
            coordinator.stop();
            throw e;
        }
    }

    public TrinoServer coordinator()
    {
        return coordinator;
    }

    public TrinoServer worker()
    {
        return worker;
    }

    /**
     * The number of nodes the coordinator counts active.
     */
    public long activeNodes()
            throws SQLException
    {
        // counted here, not with count(*): an aggregation may be scheduled on a worker that just
        // died, and then fails after a minute of retries instead of answering
        return coordinator.query("SELECT node_id FROM system.runtime.nodes WHERE state = 'active'").size();
    }

    public void stop()
            throws IOException
    {
        try {
            worker.stop();
        }
        finally {
            coordinator.stop();
        }
    }

    private void awaitNodes(int nodes, Duration timeout)
            throws IOException
    {
        long deadline = System.nanoTime() + timeout.toNanos();
        SQLException lastFailure = null;
        while (System.nanoTime() < deadline) {
            try {
                if (activeNodes() >= nodes) {
                    return;
                }
            }
            catch (SQLException e) {
                lastFailure = e;
            }
            try {
                Thread.sleep(500);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while waiting for the worker to join", e);
            }
        }
        throw new IOException("The coordinator did not count %d active nodes within %s (worker log: %s)".formatted(nodes, timeout, worker.serverLog()), lastFailure);
    }
}
