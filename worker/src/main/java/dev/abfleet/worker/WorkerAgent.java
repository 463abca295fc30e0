package dev.abfleet.worker;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HostFingerprint;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.ProtocolConstants;
import dev.abfleet.proto.fleet.v1.BuildAssignment;
import dev.abfleet.proto.fleet.v1.BuildCapability;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.ArtifactUri;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import dev.abfleet.worker.build.KernelBuilder;
import dev.abfleet.worker.buildjob.BuildCapabilities;
import dev.abfleet.worker.buildjob.BuildExecutor;
import dev.abfleet.worker.link.Backoff;
import dev.abfleet.worker.link.ControllerLink;
import dev.abfleet.worker.link.ControllerTargets;
import dev.abfleet.worker.link.LinkState;
import dev.abfleet.worker.host.HostSampler;
import dev.abfleet.worker.host.QuietThreshold;
import dev.abfleet.worker.run.BlockExecutor;
import dev.abfleet.worker.run.BlockRunner;
import dev.abfleet.worker.run.GuestRunProcedure;
import dev.abfleet.worker.run.RunProcedure;
import dev.abfleet.worker.run.TimedBlockExecutor;
import dev.abfleet.worker.sim.SimDriver;
import dev.abfleet.worker.sim.SimRunProcedure;
import dev.abfleet.worker.vm.VmDriver;
import dev.abfleet.worker.vm.qemu.QemuDriver;
import dev.abfleet.worker.vm.vz.VzDriver;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host agent: probes what this host can boot, connects to the controller and runs the
 * blocks it is assigned, one VM at a time.
 */
public final class WorkerAgent implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WorkerAgent.class);
  public static final String VERSION = "0.1.0";
  /**
   * System property that shortens the keepalive interval (whole seconds, at least
   * {@code ProtocolConstants.WORKER_KEEPALIVE_MIN_S}), so that a test sees many pings in
   * little time. Unset: {@code ProtocolConstants.WORKER_KEEPALIVE_S}.
   */
  public static final String KEEPALIVE_PROPERTY = "abfleet.worker.keepalive-s";

  private final WorkerSettings settings;
  private final ManagedChannel channel;
  private final ScheduledExecutorService timer;
  private final BlockRunner executor;
  private final BuildExecutor builds;
  private final ControllerLink link;

  /** Whether close() ends the channel and the timer (false: the sim workers of a process share them). */
  private final boolean ownsTransport;

  /** @param build the kernel builds this host takes (empty = none) */
  private WorkerAgent(WorkerSettings settings, ManagedChannel channel, Map<String, VmDriver> drivers,
      HostFacts facts, RunProcedure procedure, BuildCapability build) {
    this(settings, channel, Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "abfleet-link-" + settings.hostId());
      t.setDaemon(true);
      return t;
    }), true, drivers, facts, out -> new BlockExecutor(procedure, out, HostSampler.of(facts, versions(drivers),
        QuietThreshold.of(System.getProperty(QuietThreshold.PROPERTY)))), build);
  }

  /**
   * @param runner the block runner for this host's link: a {@link BlockExecutor} sampling the host
   *     around each boot, or for sim hosts a {@link TimedBlockExecutor} sampling nothing
   */
  private WorkerAgent(WorkerSettings settings, ManagedChannel channel, ScheduledExecutorService timer,
      boolean ownsTransport, Map<String, VmDriver> drivers, HostFacts facts,
      Function<Consumer<WorkerMessage>, BlockRunner> runner, BuildCapability build) {
    this.settings = settings;
    this.channel = channel;
    this.timer = timer;
    this.ownsTransport = ownsTransport;
    ControllerLink[] linkRef = new ControllerLink[1];
    this.executor = runner.apply(m -> linkRef[0].send(m));
    this.builds = build.getArchesCount() == 0 ? null : kernelBuilds(settings, channel, m -> linkRef[0].send(m));
    Hello hello = hello(settings, drivers, facts).toBuilder().setBuild(build).build();
    this.link = new ControllerLink(channel, () -> hello, executor::runningRunId, new ControllerLink.Handler() {
      @Override
      public void onAssignment(BlockAssignment assignment) {
        executor.submit(assignment);
      }

      @Override
      public void onCancel(Cancel cancel) {
        executor.cancel(cancel);
        if (builds != null) {
          builds.cancel(cancel);
        }
      }

      @Override
      public void onStreamEnded(String why) {
        if (builds != null) {
          builds.cancelAll("the controller stream ended (" + why + "): the build's lease is gone");
        }
      }

      @Override
      public void onBuild(BuildAssignment assignment) {
        if (builds != null) {
          builds.submit(assignment);
        } else {
          log.warn("ignoring build {}: this worker takes no kernel builds", assignment.getAttemptId());
        }
      }
    }, Backoff.standard(new SplittableRandom()), timer);
    linkRef[0] = link;
  }

  /**
   * Kernel builds under {@code <home>/builds}, or {@code $ABFLEET_BUILD_HOME} (the builder's cache
   * and warm trees; builders on one host may share it, its trees are locked per build), inputs
   * fetched into the artifact cache, outputs uploaded to the controller's store.
   */
  private static BuildExecutor kernelBuilds(WorkerSettings settings, ManagedChannel channel,
      java.util.function.Consumer<dev.abfleet.proto.fleet.v1.WorkerMessage> out) {
    ControllerArtifacts store = new ControllerArtifacts(channel, settings.controller());
    ArtifactCache cache = new ArtifactCache(settings.home().resolve("artifacts"), settings.artifactCacheMaxBytes(),
        store);
    String shared = System.getenv("ABFLEET_BUILD_HOME");
    java.nio.file.Path buildHome = shared != null && !shared.isBlank() ? java.nio.file.Path.of(shared)
        : settings.home().resolve("builds");
    KernelBuilder builder = new KernelBuilder(buildHome);
    return new BuildExecutor(builder::build, sha -> cache.stage(sha, ArtifactUri.of(sha)),
        settings.home().resolve("builds").resolve("inputs"),
        file -> store.upload(file, ArtifactCache.sha256(file)).sha256(), out, System::currentTimeMillis);
  }

  /** Probes the hypervisors of this host and connects; builds kernels when its tools allow. */
  public static WorkerAgent start(WorkerSettings settings) {
    return start(settings, true);
  }

  /**
   * Probes the hypervisors of this host and connects; returns at once (the link reconnects by
   * itself).
   *
   * @param kernelBuilds false = advertise no kernel builds even where the tools are installed
   */
  public static WorkerAgent start(WorkerSettings settings, boolean kernelBuilds) {
    HostFacts facts = HostFacts.probe();
    Map<String, VmDriver> drivers = new LinkedHashMap<>();
    drivers.put("qemu", QemuDriver.forThisHost(settings.home().resolve("probe")));
    drivers.put("vz", VzDriver.forThisHost());
    ManagedChannel channel = channel(settings);
    // Artifacts named abfleet:sha256:<hex> and boot console logs travel over the same connection.
    BuildCapability build = BuildCapabilities.probe(facts.arch(), kernelBuilds);
    WorkerAgent agent = new WorkerAgent(settings, channel, drivers, facts, new GuestRunProcedure(settings, drivers,
        new ControllerArtifacts(channel, settings.controller())), build);
    log.info("kernel builds: {}", build.getArchesCount() == 0
        ? (kernelBuilds ? "none (make, gcc, flex, bison or bc missing)" : "off (--no-build)")
        : String.join(", ", build.getArchesList()) + " with " + build.getToolchain());
    drivers.forEach((name, d) -> log.info("{}: accelerators {}, volume transports {}, guest arches {}", name,
        d.accelerators(), d.volumeTransports(), d.guestArches()));
    log.info("guest images: {}", settings.buildsImages() ? "built here when a run carries none"
        : "staged only (runs without one are refused)");
    agent.link.start();
    return agent;
  }

  /**
   * Starts a SIMULATED host: its only hypervisor is {@code sim} (Hello advertises nothing else),
   * boots follow {@code driver}'s model, and no real VM, compiler or initramfs is used. For scale
   * tests and capacity planning only.
   *
   * @throws UncheckedIOException if the placeholder initrd cannot be written under the home
   */
  public static WorkerAgent startSim(WorkerSettings settings, SimDriver driver) {
    ManagedChannel channel = channel(settings);
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "abfleet-link-" + settings.hostId());
      t.setDaemon(true);
      return t;
    });
    // One host: the link's timer thread also runs its boots' work (a few ms each).
    return startSim(settings, driver, new SimTransport(channel, timer, timer, simFacts()), true);
  }

  /**
   * What the sim workers of one process share, so that a host costs no thread or connection of
   * its own, idle or busy: a channel (HTTP/2 carries many workers' streams on one connection),
   * the timer of their heartbeats and reconnects and of their simulated boots' durations, the
   * pool their boots' work runs on (planning, writing and parsing the boot's files: CPU only),
   * and the host facts probed once. Whoever made it closes the channel, the timer and the pool,
   * after the agents.
   */
  public record SimTransport(ManagedChannel channel, ScheduledExecutorService timer, Executor work,
      HostFacts facts) {}

  /** A channel to {@code settings}' controller for {@link SimTransport}. */
  public static ManagedChannel simChannel(WorkerSettings settings) {
    return channel(settings);
  }

  /** This host's facts as a sim host advertises them (CPU model "sim"). */
  public static HostFacts simFacts() {
    HostFacts real = HostFacts.probe();
    return new HostFacts(real.arch(), real.cpus(), real.memoryMib(), "sim", real.hostKernel(), real.os());
  }

  /** As {@link #startSim(WorkerSettings, SimDriver)}, over a transport shared with other sim workers. */
  public static WorkerAgent startSim(WorkerSettings settings, SimDriver driver, SimTransport shared) {
    return startSim(settings, driver, shared, false);
  }

  private static WorkerAgent startSim(WorkerSettings settings, SimDriver driver, SimTransport shared,
      boolean owns) {
    // The boot's duration is waited out on the shared timer, not by a thread of this host.
    SimDriver timed = driver.waitedOnTimer();
    RunProcedure procedure;
    try {
      procedure = SimRunProcedure.create(settings, timed);
    } catch (IOException e) {
      throw new UncheckedIOException("sim worker " + settings.hostId() + ": cannot write its placeholder initrd under "
          + settings.home() + ": " + e.getMessage(), e);
    }
    // A sim boot needs no guest image: like a builder, it takes runs that carry none.
    WorkerAgent agent = new WorkerAgent(settings.withBuildsImages(true), shared.channel(), shared.timer(), owns,
        Map.of(SimDriver.NAME, timed), shared.facts(), out -> new TimedBlockExecutor(procedure, out, shared.work(), shared.timer(), timed),
        BuildCapability.getDefaultInstance());
    log.debug("SIMULATION: sim worker {} ({})", settings.hostId(), SimDriver.VERSION);
    agent.link.start();
    return agent;
  }

  private static ManagedChannel channel(WorkerSettings settings) {
    return ControllerTargets.channel(settings.controller(), settings.channelSecurity())
        .keepAliveTime(keepAlive(System.getProperty(KEEPALIVE_PROPERTY)).toSeconds(), TimeUnit.SECONDS)
        .build();
  }

  /**
   * The keepalive interval: the protocol's, or {@code property} (seconds) when set. The
   * controller permits pings down to half the shortest interval allowed here.
   *
   * @throws IllegalArgumentException if {@code property} is not whole seconds at or above the minimum
   */
  static Duration keepAlive(String property) {
    if (property == null || property.isBlank()) {
      return Duration.ofSeconds(ProtocolConstants.WORKER_KEEPALIVE_S_VALUE);
    }
    int min = ProtocolConstants.WORKER_KEEPALIVE_MIN_S_VALUE;
    try {
      int seconds = Integer.parseInt(property.strip());
      if (seconds >= min) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("-D" + KEEPALIVE_PROPERTY + "=" + property
        + ": expected whole seconds, at least " + min + " (gRPC's shortest keepalive)");
  }

  /** Each hypervisor's version, as Hello reports it. */
  private static Map<String, String> versions(Map<String, VmDriver> drivers) {
    Map<String, String> out = new LinkedHashMap<>();
    drivers.forEach((name, d) -> out.put(name, d.version() == null ? "" : d.version()));
    return out;
  }

  static Hello hello(WorkerSettings settings, Map<String, VmDriver> drivers, HostFacts facts) {
    Hello.Builder h = Hello.newBuilder()
        .setHostId(settings.hostId())
        .setAgentVersion(VERSION)
        .setArch(facts.arch())
        .setCpus(facts.cpus())
        .setMemoryMib(facts.memoryMib())
        .putAllLabels(settings.labels())
        .setFingerprint(HostFingerprint.newBuilder().setCpuModel(facts.cpuModel()).setHostKernel(facts.hostKernel()))
        .setBuildsGuestImages(settings.buildsImages());
    drivers.forEach((name, d) -> h.addHypervisors(HypervisorCapability.newBuilder()
        .setName(name)
        .addAllAccelerators(d.accelerators())
        .setVersion(d.version())
        .addAllVolumeTransports(d.accelerators().isEmpty() ? java.util.List.of() : d.volumeTransports())
        .addAllGuestArches(d.guestArches())
        .setVcpuPinning(d.pinsVcpus() ? "threads" : "none")));
    return h.build();
  }

  public String hostId() {
    return settings.hostId();
  }

  public LinkState linkState() {
    return link.state();
  }

  @Override
  public void close() {
    link.close();
    executor.close();
    if (builds != null) {
      builds.close();
    }
    if (ownsTransport) {
      timer.shutdownNow();
      channel.shutdownNow();
    }
  }
}
