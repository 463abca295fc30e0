package dev.abfleet.cli;

import dev.abfleet.cli.config.FleetConfig;
import dev.abfleet.cli.config.FleetConfigLoader;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.worker.WorkerSettings;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet controller}: one controller node as its own process. */
@Command(name = "controller", mixinStandardHelpOptions = true,
    description = "Run a controller node: gRPC for workers and clients, the scheduler, experiments, the journal.")
final class ControllerCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "fleet.yaml (default: the built-in one).")
  Path config;

  @Option(names = "--grpc-port", paramLabel = "PORT", description = "Overrides controller.grpc_port.")
  Integer grpcPort;

  @Option(names = "--grpc-host", paramLabel = "ADDR", description = "Overrides controller.grpc_host.")
  String grpcHost;

  @Option(names = "--cluster-port", paramLabel = "PORT", description = "Overrides controller.cluster_port.")
  Integer clusterPort;

  @Option(names = "--cluster-host", paramLabel = "NAME",
      description = "Address other controller nodes reach this one at (default: the gRPC host), e.g. the pod's DNS name.")
  String clusterHost;

  @Option(names = "--home", paramLabel = "DIR", description = "Data directory of the default H2 store (default: $ABFLEET_HOME or ~/.cache/abfleet).")
  Path home;

  @Override
  public Integer call() throws InterruptedException {
    FleetConfig cfg = config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config);
    ControllerSettings s = ControllerConfigs.fromConfig(cfg, home != null ? home : WorkerSettings.defaultHome());
    if (grpcPort != null || grpcHost != null) {
      s = s.withGrpc(grpcHost != null ? grpcHost : s.grpcHost(), grpcPort != null ? grpcPort : s.grpcPort());
    }
    if (clusterPort != null || clusterHost != null) {
      s = s.withCluster(clusterHost != null ? clusterHost : s.clusterHost(),
          clusterPort != null ? clusterPort : s.clusterPort(), s.seedNodes());
    }
    CountDownLatch stop = new CountDownLatch(1);
    ControllerNode node = ControllerNode.start(s);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      node.close();
      stop.countDown();
    }));
    System.err.println("abfleet controller: gRPC on " + s.grpcHost() + ":" + node.grpcPort() + ", cluster node " + node.nodeAddress());
    stop.await();
    return Main.EXIT_OK;
  }
}
