package dev.abfleet.bench.sim;

import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.worker.WorkerAgent;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.sim.SimBootRecord;
import dev.abfleet.worker.sim.SimDriver;
import dev.abfleet.worker.sim.SimModel;
import dev.abfleet.worker.HostFacts;
import dev.abfleet.worker.link.ChannelSecurity;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Many SIMULATED worker agents in one JVM, each with its own gRPC stream to the controller (real
 * gRPC, usually over loopback), as that many separate hosts would connect. Host ids are
 * {@code <prefix>0001}, {@code <prefix>0002}, ...
 *
 * <p>Cheap enough for 10,000 on a small machine: the streams of {@value #WORKERS_PER_CHANNEL}
 * workers share one channel (one HTTP/2 connection), and no worker holds a thread of its own,
 * idle or busy. Every worker's heartbeats and reconnects, and the simulated duration of every
 * boot, run on {@value #TIMER_THREADS} shared timer threads; the work of a boot (plan it, write
 * its console and results files, then the real parser and classifier) runs on one shared pool
 * of as many threads as cores, at least two ({@link WorkerAgent.SimTransport},
 * {@link dev.abfleet.worker.run.TimedBlockExecutor}).
 */
public final class SimFleet implements AutoCloseable {
  /**
   * Worker streams per connection: below the controller's default limit of 100 calls open at
   * once on one connection (controller.limits.max_concurrent_calls_per_connection), with room for
   * the artifact fetches of the same workers.
   */
  public static final int WORKERS_PER_CHANNEL = 50;
  static final int TIMER_THREADS = 2;
  /** Threads the boots' work of all workers shares: CPU only (no boot sleeps on them). */
  static final int WORK_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  private final List<WorkerAgent> agents;
  private final List<ManagedChannel> channels;
  private final ScheduledExecutorService timer;
  private final ExecutorService work;

  private SimFleet(List<WorkerAgent> agents, List<ManagedChannel> channels, ScheduledExecutorService timer,
      ExecutorService work) {
    this.agents = agents;
    this.channels = channels;
    this.timer = timer;
    this.work = work;
  }

  /**
   * Starts {@code count} sim agents; returns at once (each link connects and reconnects by itself).
   *
   * @param recorder told about every simulated boot of every agent (may be called concurrently)
   */
  public static SimFleet start(String controller, int count, String idPrefix, SimModel model,
      Map<String, String> labels, Path home, Consumer<SimBootRecord> recorder) {
    return start(controller, count, idPrefix, model, labels, home, host -> ChannelSecurity.DEFAULT, recorder);
  }

  /**
   * As above, each host's channel secured as {@code securityOf(hostId)} says. Hosts whose
   * security is equal share a channel ({@value #WORKERS_PER_CHANNEL} at most); a host with a
   * certificate of its own gets a channel of its own, since a client certificate identifies a
   * whole TLS connection and the controller binds a worker certificate to one host id.
   */
  public static SimFleet start(String controller, int count, String idPrefix, SimModel model,
      Map<String, String> labels, Path home, Function<String, ChannelSecurity> securityOf,
      Consumer<SimBootRecord> recorder) {
    List<WorkerAgent> agents = new ArrayList<>(count);
    List<ManagedChannel> channels = new ArrayList<>();
    AtomicInteger threads = new AtomicInteger();
    ScheduledExecutorService timer = Executors.newScheduledThreadPool(TIMER_THREADS, r -> {
      Thread t = new Thread(r, "abfleet-sim-timer-" + threads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    AtomicInteger workers = new AtomicInteger();
    ExecutorService work = Executors.newFixedThreadPool(WORK_THREADS, r -> {
      Thread t = new Thread(r, "abfleet-sim-work-" + workers.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    SimFleet fleet = new SimFleet(agents, channels, timer, work);
    try {
      HostFacts facts = WorkerAgent.simFacts();
      WorkerAgent.SimTransport transport = null;
      ChannelSecurity shared = null;
      int onChannel = 0;
      for (int i = 1; i <= count; i++) {
        String hostId = hostId(idPrefix, i);
        ChannelSecurity security = securityOf.apply(hostId);
        WorkerSettings settings = new WorkerSettings(controller, hostId, labels, home)
            .withChannelSecurity(security);
        if (transport == null || onChannel == WORKERS_PER_CHANNEL || !security.equals(shared)) {
          ManagedChannel channel = WorkerAgent.simChannel(settings);
          channels.add(channel);
          transport = new WorkerAgent.SimTransport(channel, timer, work, facts);
          shared = security;
          onChannel = 0;
        }
        onChannel++;
        agents.add(WorkerAgent.startSim(settings, new SimDriver(model, hostId, recorder), transport));
      }
    } catch (RuntimeException e) {
      fleet.close();
      throw e;
    }
    return fleet;
  }

  /** Channels the workers share: one per {@value #WORKERS_PER_CHANNEL}. */
  public int channels() {
    return channels.size();
  }

  /** {@code prefix} and {@code i} in at least four digits: sim-0001. */
  public static String hostId(String prefix, int i) {
    return prefix + String.format(Locale.ROOT, "%04d", i);
  }

  public List<String> hostIds() {
    return agents.stream().map(WorkerAgent::hostId).toList();
  }

  public int size() {
    return agents.size();
  }

  @Override
  public void close() {
    agents.forEach(WorkerAgent::close);
    channels.forEach(ManagedChannel::shutdownNow);
    timer.shutdownNow();
    work.shutdownNow();
  }

  /**
   * Waits until the controller at {@code target} lists {@code n} connected sim hosts. The
   * controller serves plaintext, as the embedded controllers of benches and tests do.
   */
  public static void awaitHosts(String target, int n, int timeoutS) throws InterruptedException {
    ManagedChannel channel = io.grpc.Grpc.newChannelBuilder(target, io.grpc.InsecureChannelCredentials.create())
        .build();
    try {
      var stub = ExperimentServiceGrpc.newBlockingStub(channel);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
      long connected = 0;
      while (System.nanoTime() < deadline) {
        connected = stub.withDeadlineAfter(10, TimeUnit.SECONDS).listHosts(ListHostsRequest.getDefaultInstance())
            .getHostsList().stream()
            .filter(h -> !h.getState().equals("offline"))
            .filter(h -> h.getHypervisorsList().stream().anyMatch(c -> c.getName().equals("sim")))
            .count();
        if (connected >= n) {
          return;
        }
        Thread.sleep(100);
      }
      throw new IllegalStateException("only " + connected + " of " + n + " sim workers registered in " + timeoutS + " s");
    } finally {
      channel.shutdownNow();
    }
  }
}
