package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.bench.sim.SimModels;
import dev.abfleet.worker.WorkerAgent;
import dev.abfleet.config.ByteSize;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.link.ChannelSecurity;
import dev.abfleet.worker.link.ControllerTargets;
import dev.abfleet.worker.sim.SimDriver;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet worker}: the host agent as its own process. */
@Command(name = "worker", mixinStandardHelpOptions = true,
    description = "Run the worker agent: connect to a controller and boot the VMs it assigns, one at a time.")
final class WorkerCommand implements Callable<Integer> {
  @Option(names = "--controller", required = true, paramLabel = "HOST:PORT[,...]", description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas.")
  String controller;

  @Option(names = "--ca", paramLabel = "FILE",
      description = "CA certificate (PEM) that signed the controller's certificate (env ABFLEET_CA).")
  Path ca;

  @Option(names = "--cert", paramLabel = "FILE",
      description = "This worker's certificate (PEM), naming its host id (`abfleet certs issue --worker ID`).")
  Path cert;

  @Option(names = "--key", paramLabel = "FILE", description = "The private key (PEM, PKCS#8) of --cert.")
  Path key;

  @Option(names = "--plaintext",
      description = "No TLS and no certificate: only to a loopback controller started with --plaintext.")
  boolean plaintext;

  @Option(names = "--host-id", paramLabel = "ID", description = "Id of this host in the fleet (default: hostname).")
  String hostId;

  @Option(names = "--label", paramLabel = "KEY=VALUE", description = "Operator label, repeatable.")
  Map<String, String> labels = new LinkedHashMap<>();

  @Option(names = "--home", paramLabel = "DIR", description = "Cache and per-boot logs (default: $ABFLEET_HOME or ~/.cache/abfleet).")
  Path home;

  @Option(names = "--no-image-build",
      description = "Boot only staged guest images, as a macOS worker does; never compile (runs that carry no"
          + " guest image are refused). Default on macOS.")
  boolean noImageBuild;

  @Option(names = "--no-build",
      description = "Take no kernel builds, even where make, gcc, flex, bison and bc are installed (by default a"
          + " worker with those tools builds kernels for the fleet, under a lease of its own: never during a boot).")
  boolean noBuild;

  @Option(names = "--artifact-cache-max-bytes", paramLabel = "SIZE",
      description = "Cap of the artifact cache under the home (kernels, images fetched from the controller or"
          + " staged from paths), e.g. 20GiB (the default); least recently used artifacts are evicted beyond it.")
  String artifactCacheMaxBytes;

  @Option(names = "--hypervisor", defaultValue = "auto", paramLabel = "NAME",
      description = "auto (probe qemu and vz) or sim (SIMULATED boots for scale tests; default: ${DEFAULT-VALUE}).")
  String hypervisor;

  @Option(names = "--sim-model", paramLabel = "FILE", description = "With --hypervisor sim: performance model, YAML.")
  Path simModel;

  @Option(names = "--time-scale", paramLabel = "X",
      description = "With --hypervisor sim: real seconds per simulated second (1.0 = real time).")
  Double timeScale;

  @Override
  public Integer call() throws InterruptedException {
    ControllerAddress.check(controller);
    String id = hostId != null ? hostId : WorkerSettings.defaultHostId();
    if (!id.matches("[A-Za-z0-9_.-]{1,128}")) {
      throw new Problem("--host-id '" + id + "' may only use letters, digits, '_', '.', '-'");
    }
    boolean sim = hypervisor.equals("sim");
    if (!sim && !hypervisor.equals("auto")) {
      throw new Problem("--hypervisor '" + hypervisor + "': expected auto or sim");
    }
    if (!sim && (simModel != null || timeScale != null)) {
      throw new Problem("--sim-model and --time-scale need --hypervisor sim");
    }
    if (sim && noImageBuild) {
      throw new Problem("--no-image-build is for real workers; a sim worker boots no guest image");
    }
    WorkerSettings settings = settings(id).withChannelSecurity(channelSecurity());
    SimModel model = sim ? SimModels.load(simModel, timeScale) : null;
    CountDownLatch stop = new CountDownLatch(1);
    try (WorkerAgent agent = sim ? WorkerAgent.startSim(settings, new SimDriver(model, id)) : WorkerAgent.start(settings, !noBuild)) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        agent.close();
        stop.countDown();
      }));
      System.err.println("abfleet worker " + id + " -> " + controller
          + (sim ? " (SIMULATION: hypervisor sim; " + SimModels.describe(model) + ")" : ""));
      stop.await();
    }
    return ExitCodes.OK;
  }

  /**
   * mTLS with --ca, --cert and --key, or --plaintext to a loopback controller.
   *
   * @throws Problem naming the missing or conflicting flag
   */
  ChannelSecurity channelSecurity() {
    Path caFile = ca;
    String envCa = System.getenv("ABFLEET_CA");
    if (caFile == null && envCa != null && !envCa.isBlank()) {
      caFile = Path.of(envCa);
    }
    if (plaintext) {
      if (ca != null || cert != null || key != null) {
        throw new Problem("--plaintext and --ca/--cert/--key: choose one (the certificates mean TLS)");
      }
      var remote = ControllerTargets.parse(controller).stream()
          .filter(n -> !dev.abfleet.controller.security.Loopback.is(n.host())).toList();
      if (!remote.isEmpty()) {
        throw new Problem("--plaintext to " + remote.get(0) + ": plaintext only to a loopback"
            + " controller; to reach another host pass --ca, --cert and --key (`abfleet certs"
            + " issue --worker HOST_ID`)");
      }
      return ChannelSecurity.DEFAULT;
    }
    String fix = "; a worker connects with --ca, --cert and --key (`abfleet certs issue --worker"
        + " HOST_ID` makes the certificate), or with --plaintext to a loopback controller";
    for (var flag : java.util.List.of(java.util.Map.entry("--ca", java.util.Optional.ofNullable(caFile)),
        java.util.Map.entry("--cert", java.util.Optional.ofNullable(cert)),
        java.util.Map.entry("--key", java.util.Optional.ofNullable(key)))) {
      if (flag.getValue().isEmpty()) {
        throw new Problem(flag.getKey() + " missing" + fix);
      }
      if (!java.nio.file.Files.isReadable(flag.getValue().get())) {
        throw new Problem(flag.getKey() + " " + flag.getValue().get() + ": no such readable file" + fix);
      }
    }
    return new ChannelSecurity(caFile, cert, key, null);
  }

  /** The agent's settings from the options; {@code --no-image-build} or macOS = boots staged images only. */
  WorkerSettings settings(String id) {
    long cap = artifactCacheMaxBytes == null ? WorkerSettings.DEFAULT_ARTIFACT_CACHE_MAX_BYTES
        : ByteSize.parse(artifactCacheMaxBytes).orElseThrow(() -> new Problem("--artifact-cache-max-bytes '"
            + artifactCacheMaxBytes + "': expected " + ByteSize.EXPECTED));
    return new WorkerSettings(controller, id, labels, home != null ? home : WorkerSettings.defaultHome(),
        !noImageBuild && WorkerSettings.defaultBuildsImages(), cap);
  }
}
