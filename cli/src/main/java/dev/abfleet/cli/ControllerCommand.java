package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.config.NightlySchedules;
import dev.abfleet.controller.ClusterExposure;
import dev.abfleet.controller.ClusterFormation;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.worker.WorkerSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet controller}: one controller node as its own process. */
@Command(name = "controller", mixinStandardHelpOptions = true,
    description = {"Run a controller node: gRPC for workers and clients, the scheduler, experiments, the journal.",
      "It fires the schedules: of --config at their cron times (this machine's time zone) and keeps",
      "their history in the journal (see abfleet history; held runs: abfleet nightly)."})
final class ControllerCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "fleet.yaml (default: the built-in one).")
  Path config;

  @Option(names = "--grpc-port", paramLabel = "PORT", description = "Overrides controller.grpc_port.")
  Integer grpcPort;

  @Option(names = "--grpc-host", paramLabel = "ADDR", description = "Overrides controller.grpc_host.")
  String grpcHost;

  @Option(names = "--cluster-port", paramLabel = "PORT", description = "Overrides controller.cluster_port.")
  Integer clusterPort;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "Overrides controller.metrics_port: HTTP port of /metrics (Prometheus text); 0 = off.")
  Integer metricsPort;

  @Option(names = "--dashboard-port", paramLabel = "PORT",
      description = "Overrides controller.dashboard_port: HTTP port of the web dashboard"
          + " (experiments, reports, hosts); 0 = off.")
  Integer dashboardPort;

  @Option(names = "--cluster-host", paramLabel = "NAME",
      description = "Address other controller nodes reach this one at (default: the gRPC host), e.g. the pod's DNS name.")
  String clusterHost;

  @Option(names = "--seed-nodes", paramLabel = "HOST:PORT,...", split = ",",
      description = "Cluster addresses (host:cluster-port) of the controller nodes to join; overrides"
          + " controller.seed_nodes. List the same nodes, in the same order, on every node: the first"
          + " one forms the cluster when nobody else answers.")
  java.util.List<String> seedNodes;

  @Option(names = "--plaintext",
      description = "No TLS (same as controller.plaintext: true); only with a loopback gRPC host.")
  boolean plaintext;

  @Option(names = "--insecure-cluster",
      description = "With --plaintext: allow seed nodes or a non-loopback --cluster-host, i.e. a cluster"
          + " port any machine that reaches it can join. Only on a network nobody else can reach;"
          + " with TLS the cluster port is mutual TLS and needs no such flag.")
  boolean insecureCluster;

  @Option(names = "--home", paramLabel = "DIR", description = "Data directory of the default H2 store (default: $ABFLEET_HOME or ~/.cache/abfleet).")
  Path home;

  /**
   * Checks what can be checked before the actor system starts (ports, the store directory and
   * its lock), so that bad input or a busy environment ends in one line within seconds.
   */
  @Override
  public Integer call() throws InterruptedException {
    checkPortRange("--grpc-port", grpcPort);
    checkPortRange("--cluster-port", clusterPort);
    if (metricsPort != null && (metricsPort < 0 || metricsPort > 65_535)) {
      throw new Problem("--metrics-port " + metricsPort + ": expected a port from 1 to 65535, or 0 for no /metrics");
    }
    if (dashboardPort != null && (dashboardPort < 0 || dashboardPort > 65_535)) {
      throw new Problem("--dashboard-port " + dashboardPort
          + ": expected a port from 1 to 65535, or 0 for no dashboard");
    }
    FleetConfig cfg = config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config);
    Path dataHome = home != null ? home : WorkerSettings.defaultHome();
    Path configDir = config == null ? Path.of("").toAbsolutePath() : config.toAbsolutePath().normalize().getParent();
    ControllerSettings s = ControllerConfigs.fromConfig(cfg, dataHome)
        .withNightly(ControllerConfigs.nightly(cfg, configDir, dataHome));
    if (grpcPort != null || grpcHost != null) {
      s = s.withGrpc(grpcHost != null ? grpcHost : s.grpcHost(), grpcPort != null ? grpcPort : s.grpcPort());
    }
    if (clusterPort != null || clusterHost != null || seedNodes != null) {
      s = s.withCluster(clusterHost != null ? clusterHost : s.clusterHost(),
          clusterPort != null ? clusterPort : s.clusterPort(),
          seedNodes != null ? seedNodes : s.seedNodes());
    }
    s = s.withSecurity(ControllerConfigs.security(cfg, plaintext, s.grpcHost(), dataHome))
        .withInsecureCluster(insecureCluster);
    if (insecureCluster && s.security().tls()) {
      throw new Problem("--insecure-cluster is for plaintext; with controller.tls the cluster port is"
          + " mutual TLS already; drop --insecure-cluster");
    }
    try {
      ClusterExposure.check(s);
    } catch (IllegalArgumentException e) {
      throw new Problem(e.getMessage());
    }
    if (metricsPort != null) {
      s = s.withMetricsPort(metricsPort);
    }
    if (dashboardPort != null) {
      s = s.withDashboardPort(dashboardPort);
    }
    Path storeDir = ControllerConfigs.h2Dir(cfg, dataHome);
    if (storeDir != null && s.seedNodes().size() > 1) {
      throw new Problem((seedNodes != null ? "--seed-nodes" : "controller.seed_nodes (fleet.yaml)")
          + " lists " + s.seedNodes().size() + " nodes, but the journal is an H2 file, which one"
          + " controller process alone can use; give the nodes a shared PostgreSQL journal"
          + " (controller.store: {kind: postgres, ...} in --config)");
    }
    String homeOrigin = home != null ? "--home " + home : "home " + dataHome + " (the default; see --home)";
    try (StoreLock lock = storeDir == null ? null : StoreLock.acquire(storeDir,
        ControllerConfigs.h2DirOrigin(cfg, homeOrigin),
        cfg.controller().store().path().isEmpty() ? "choose another --home" : "set another controller.store.path")) {
      checkFree(grpcPort != null ? "--grpc-port" : "controller.grpc_port (fleet.yaml)",
          grpcHost != null ? "--grpc-host" : "controller.grpc_host (fleet.yaml)", s.grpcHost(), s.grpcPort());
      checkFree(clusterPort != null ? "--cluster-port" : "controller.cluster_port (fleet.yaml)",
          clusterHost != null ? "--cluster-host" : "the cluster host (--cluster-host, default the gRPC host)",
          s.clusterHost(), s.clusterPort());
      ClusterFormation formation = ControllerConfigs.formation(cfg);
      if (formation.managementPort().isPresent()) {
        checkFree("controller.management_port (fleet.yaml)", grpcHost != null ? "--grpc-host"
            : "controller.grpc_host (fleet.yaml)", formation.managementBindHost(s),
            formation.managementPort().getAsInt());
      }
      ControllerNode node;
      try {
        node = ControllerNode.start(s, ControllerConfigs.artifacts(cfg, dataHome), formation);
      } catch (UncheckedIOException | IllegalStateException | IllegalArgumentException e) {
        throw new Problem(e.getMessage());
      }
      CountDownLatch stop = new CountDownLatch(1);
      Thread closeOnExit = new Thread(() -> {
        node.close();
        stop.countDown();
      });
      Runtime.getRuntime().addShutdownHook(closeOnExit);
      // A failed store ends the process (non-zero) instead of leaving a zombie that answers
      // some calls and fails every write.
      node.storeFailure().thenRun(stop::countDown);
      System.err.println("abfleet controller: gRPC on " + s.grpcHost() + ":" + node.grpcPort() + ", cluster node " + node.nodeAddress());
      ControllerConfigs.warnIfPlaintext(s.withGrpc(s.grpcHost(), node.grpcPort()), plaintext);
      for (var schedule : s.nightly().schedules()) {
        System.err.println("abfleet controller: schedule " + schedule.name() + " (" + schedule.cron() + ", "
            + schedule.zone().getId() + ")" + (schedule.simulation() ? ": " + NightlySchedules.SIMULATION : ""));
      }
      stop.await();
      var failure = node.storeFailure().toCompletableFuture();
      if (failure.isDone()) {
        System.err.println("abfleet controller: " + failure.join().message());
        try {
          Runtime.getRuntime().removeShutdownHook(closeOnExit);
          node.close();
        } catch (IllegalStateException shuttingDown) {
          // SIGTERM came too: the hook closes the node.
        }
        return ExitCodes.FAILED;
      }
    }
    return ExitCodes.OK;
  }

  private static void checkPortRange(String option, Integer port) {
    if (port != null && (port < 0 || port > 65_535)) {
      throw new Problem(option + " " + port + ": expected a port from 1 to 65535, or 0 for any free port");
    }
  }

  /** Binds and releases {@code host:port} (0 = any port, nothing to check). */
  private static void checkFree(String portOrigin, String hostOrigin, String host, int port) {
    if (port == 0) {
      return;
    }
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(host, port));
    } catch (IOException e) {
      String why = " cannot listen on " + host + ":" + port + " (" + e.getMessage() + "); ";
      if (String.valueOf(e.getMessage()).contains("in use")) {
        throw new Problem(portOrigin + " " + port + ":" + why
            + "stop the process that uses it or choose another port (0 = any free port)");
      }
      throw new Problem(hostOrigin + " " + host + ":" + why + "use an address of this machine");
    }
  }
}
