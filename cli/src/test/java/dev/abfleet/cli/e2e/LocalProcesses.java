package dev.abfleet.cli.e2e;

import dev.abfleet.testkit.Eventually;
import dev.abfleet.testkit.Ports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A controller and workers as separate abfleet processes on loopback; killed on close. */
final class LocalProcesses implements AutoCloseable {
  /**
   * The quiet-host policy of experiments on a fleet of several workers on this one machine: none.
   * Each worker's VMs are the other workers' busy neighbour (real interference, and marked so),
   * so the default policy would wait for and re-run pairs these tests count.
   */
  static final dev.abfleet.proto.fleet.v1.HostQuiet SHARED_MACHINE =
      dev.abfleet.proto.fleet.v1.HostQuiet.newBuilder().setOnInterference("off").build();

  final Path dir;
  final int grpcPort;
  private final List<Process> processes = new ArrayList<>();

  LocalProcesses(Path dir) throws IOException {
    this.dir = dir;
    this.grpcPort = freePort();
  }

  String target() {
    return "127.0.0.1:" + grpcPort;
  }

  Process startController() throws Exception {
    Process p = Cli.start(dir, "controller", "controller", "--plaintext", "--grpc-port", String.valueOf(grpcPort),
        "--cluster-port", "0", "--home", Files.createDirectories(dir.resolve("controller-home")).toString());
    processes.add(p);
    awaitListening(p, "controller", grpcPort);
    return p;
  }

  /**
   * A controller process logging to {@code name}.err with {@code args} after
   * {@code controller --grpc-port PORT} and {@code env} added to its environment (e.g. the
   * password a fleet.yaml names in {@code password_env}); not waited for: see
   * {@link #awaitListening}.
   */
  Process startControllerNode(String name, int port, Map<String, String> env, String... args)
      throws Exception {
    List<String> all = new ArrayList<>(List.of("--plaintext"));
    all.addAll(List.of(args));
    return startSecuredControllerNode(name, port, env, all.toArray(String[]::new));
  }

  /** As {@link #startControllerNode} without --plaintext: {@code args} (its fleet.yaml) set up TLS. */
  Process startSecuredControllerNode(String name, int port, Map<String, String> env, String... args)
      throws Exception {
    List<String> all = new ArrayList<>(List.of("controller", "--grpc-port", String.valueOf(port)));
    all.addAll(List.of(args));
    Process p = Cli.start(dir, name, List.of(), env, all.toArray(String[]::new));
    processes.add(p);
    return p;
  }

  /** Returns once {@code p} (logging to {@code name}.err) accepts connections on {@code port}. */
  void awaitListening(Process p, String name, int port) {
    Eventually.until(name + " listening on " + port, Duration.ofSeconds(90), () -> {
      if (!p.isAlive()) {
        throw new AssertionError(name + " exited: " + Cli.read(dir.resolve(name + ".err")));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return true;
      }
    }, listening -> listening, notYet -> notYet instanceof IOException);
  }

  /** A free loopback port outside the ephemeral range ({@link Ports#freeLoopbackPort}). */
  static int freePort() throws IOException {
    return Ports.freeLoopbackPort();
  }

  /**
   * The controller with {@code --config config} (its store, e.g. PostgreSQL) and {@code env}
   * (e.g. the variable its password_env names), logging to {@code name}.out/.err; returns once
   * it serves gRPC.
   */
  Process startController(String name, Path config, Map<String, String> env) throws Exception {
    Process p = startControllerNode(name, grpcPort, env, "--config", config.toString(), "--cluster-port", "0",
        "--home", Files.createDirectories(dir.resolve("controller-home")).toString());
    awaitListening(p, name, grpcPort);
    return p;
  }

  Process startWorker(String hostId, String... options) throws Exception {
    return startWorker(hostId, Map.of(), options);
  }

  /** As above, with variables added to the worker's environment. */
  Process startWorker(String hostId, Map<String, String> env, String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of("worker", "--controller", target(), "--plaintext", "--host-id", hostId,
        "--home", Files.createDirectories(dir.resolve(hostId + "-home")).toString()));
    args.addAll(List.of(options));
    Process p = Cli.start(dir, hostId, List.of(), env, args.toArray(String[]::new));
    processes.add(p);
    return p;
  }

  /** {@code abfleet sim-fleet}: {@code workers} simulated hosts in one process (log "sim-fleet"). */
  Process startSimFleet(int workers, double timeScale) throws Exception {
    Process p = Cli.start(dir, "sim-fleet", "sim-fleet", "--controller", target(), "--workers",
        String.valueOf(workers), "--time-scale", String.valueOf(timeScale), "--home",
        Files.createDirectories(dir.resolve("sim-fleet-home")).toString());
    processes.add(p);
    return p;
  }

  /**
   * As {@link #startSimFleet(int, double)}, connected to {@code controllers} (HOST:PORT[,...]),
   * with {@code options} added (e.g. --ca, --cert, --key).
   */
  Process startSimFleet(String controllers, int workers, double timeScale, String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of("sim-fleet", "--controller", controllers, "--workers",
        String.valueOf(workers), "--time-scale", String.valueOf(timeScale), "--home",
        Files.createDirectories(dir.resolve("sim-fleet-home")).toString()));
    args.addAll(List.of(options));
    Process p = Cli.start(dir, "sim-fleet", args.toArray(String[]::new));
    processes.add(p);
    return p;
  }

  /** A SIMULATED worker (hypervisor sim) with {@code security} (--ca/--cert/--key or --plaintext). */
  Process startSimWorkerWith(String hostId, String... security) throws Exception {
    List<String> args = new ArrayList<>(List.of("worker", "--controller", target(), "--host-id", hostId,
        "--hypervisor", "sim", "--home", Files.createDirectories(dir.resolve(hostId + "-home")).toString()));
    args.addAll(List.of(security));
    Process p = Cli.start(dir, hostId, args.toArray(String[]::new));
    processes.add(p);
    return p;
  }

  /** A SIMULATED worker (hypervisor sim), its JVM started with {@code jvmOptions}. */
  Process startSimWorker(String hostId, String... jvmOptions) throws Exception {
    Process p = Cli.start(dir, hostId, List.of(jvmOptions), "worker", "--controller", target(), "--plaintext", "--host-id", hostId,
        "--hypervisor", "sim", "--home", Files.createDirectories(dir.resolve(hostId + "-home")).toString());
    processes.add(p);
    return p;
  }

  String log(String name) throws IOException {
    return Cli.read(dir.resolve(name + ".err"));
  }

  @Override
  public void close() throws Exception {
    for (Process p : processes) {
      p.destroy();
    }
    for (Process p : processes) {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }
}
