package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.controller.fleet.HostNames;
import dev.abfleet.proto.fleet.v1.DrainHostRequest;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.FleetServiceGrpc;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.ReleaseHostRequest;
import dev.abfleet.proto.fleet.v1.UndrainHostRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code abfleet hosts list|drain|undrain|release}: look at the fleet and take hosts out of
 * service. Drained and quarantined are durable controller states; see FleetService.
 */
@Command(
    name = "hosts",
    mixinStandardHelpOptions = true,
    description = "List the controller's hosts, drain or undrain one, release one from quarantine.",
    subcommands = {
      HostsCommand.ListHosts.class,
      HostsCommand.Drain.class,
      HostsCommand.Undrain.class,
      HostsCommand.Release.class
    })
final class HostsCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new Problem("hosts: missing subcommand; use one of: list, drain HOST, undrain HOST,"
        + " release HOST (see: abfleet hosts --help)");
  }

  /** The --controller option every subcommand takes. */
  static final class ControllerOption {
    @Option(names = "--controller", defaultValue = "127.0.0.1:7070", paramLabel = "HOST:PORT[,...]",
        description = "Controller gRPC address (default: ${DEFAULT-VALUE}).")
    String controller;

    @Mixin ClientAuthOptions auth;

    /** The checked address; a {@link Problem} names the value and the expected form. */
    String target() {
      return ControllerAddress.check(controller, auth);
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "Print every host the controller has seen since it started, one per line.")
  static final class ListHosts implements Callable<Integer> {
    @Mixin ControllerOption options;

    @Option(names = "--wide", description = "Also print the fingerprint (CPU model, host kernel,"
        + " hypervisor versions) and REJECTED: the host's worker reports the controller refused"
        + " since it started (not leased to it, old lease epoch, another host's name).")
    boolean wide;

    @Override
    public Integer call() {
      List<Host> hosts = rpc(options.target(), channel -> all(ExperimentServiceGrpc.newBlockingStub(channel)));
      System.out.print(table(hosts, wide));
      return ExitCodes.OK;
    }
  }

  /** Hosts in one answer: at thousands of hosts one page at a time keeps each answer quick. */
  static final int PAGE = 1000;

  /** Every host, page after page, each page with a deadline of its own. */
  static List<Host> all(ExperimentServiceGrpc.ExperimentServiceBlockingStub stub) {
    List<Host> hosts = new java.util.ArrayList<>();
    String token = "";
    do {
      var page = stub.withDeadlineAfter(30, TimeUnit.SECONDS)
          .listHosts(ListHostsRequest.newBuilder().setPageSize(PAGE).setPageToken(token).build());
      hosts.addAll(page.getHostsList());
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    return hosts;
  }

  @Command(name = "drain", mixinStandardHelpOptions = true,
      description = "Let HOST finish its current block and give it no new lease (survives restarts).")
  static final class Drain implements Callable<Integer> {
    @Mixin ControllerOption options;

    @Parameters(index = "0", paramLabel = "HOST", description = "Host id as `abfleet hosts list` shows it.")
    String host;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why; the controller logs it, and hosts list and the dashboard's hosts page show it.")
    String reason;

    @Override
    public Integer call() {
      return change(options, host, fleet -> fleet.drainHost(DrainHostRequest.newBuilder().setHostId(host)
          .setReason(reason == null ? "" : reason).build()));
    }
  }

  @Command(name = "undrain", mixinStandardHelpOptions = true,
      description = "Give HOST leases again after a drain.")
  static final class Undrain implements Callable<Integer> {
    @Mixin ControllerOption options;

    @Parameters(index = "0", paramLabel = "HOST", description = "Host id as `abfleet hosts list` shows it.")
    String host;

    @Override
    public Integer call() {
      return change(options, host, fleet -> fleet.undrainHost(UndrainHostRequest.newBuilder().setHostId(host).build()));
    }
  }

  @Command(name = "release", mixinStandardHelpOptions = true,
      description = "End HOST's quarantine now (instead of after the cool-down) and forget its failures"
          + " and interfered boots (the noisy flag).")
  static final class Release implements Callable<Integer> {
    @Mixin ControllerOption options;

    @Parameters(index = "0", paramLabel = "HOST", description = "Host id as `abfleet hosts list` shows it.")
    String host;

    @Override
    public Integer call() {
      return change(options, host, fleet -> fleet.releaseHost(ReleaseHostRequest.newBuilder().setHostId(host).build()));
    }
  }

  /** One operator change to a host: checks the id and the address, calls, prints the host's new row. */
  private static int change(ControllerOption options, String host,
      Function<FleetServiceGrpc.FleetServiceBlockingStub, Host> call) {
    HostNames.check("HOST", host).ifPresent(problem -> {
      throw new Problem(problem);
    });
    Host h = rpc(options.target(), channel ->
        call.apply(FleetServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)));
    System.out.print(table(List.of(h), false));
    return ExitCodes.OK;
  }

  /** Runs one call; NOT_FOUND and INVALID_ARGUMENT are the user's to fix (exit 2). */
  private static <T> T rpc(String target, Function<ManagedChannel, T> rpc) {
    ManagedChannel channel = ControllerAddress.channel(target);
    try {
      return rpc.apply(channel);
    } catch (StatusRuntimeException e) {
      Status.Code code = e.getStatus().getCode();
      if (code == Status.Code.NOT_FOUND || code == Status.Code.INVALID_ARGUMENT) {
        throw new Problem(e.getStatus().getDescription());
      }
      if (Reconnect.refused(e)) {
        throw Reconnect.refusedAt(target, e);
      }
      if (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED) {
        throw new Problem("no controller answers at " + target + " (" + code + "); start one with"
            + " `abfleet controller` or pass --controller HOST:PORT");
      }
      throw e;
    } finally {
      channel.shutdownNow();
    }
  }

  /**
   * One line per host under a header, columns padded to the widest value. HEARD is how long ago
   * the host's worker last spoke; NOISE its median paired residual over its newest pairs / how
   * many pairs ("-" before any experiment measured it); INTERFERED how many of its newest boots
   * the worker marked interfered / how many boots ("-" before its first boot), "noisy" appended
   * to STATE when that flagged the host.
   */
  static String table(List<Host> hosts, boolean wide) {
    List<List<String>> rows = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of(
        "HOST", "STATE", "ARCH", "HYPERVISORS", "CPUS", "MEMORY", "LABELS", "LEASED_TO/EPOCH", "HEARD",
        "NOISE", "INTERFERED"));
    if (wide) {
      header.addAll(List.of("CPU_MODEL", "HOST_KERNEL", "VERSIONS", "REJECTED"));
    }
    rows.add(header);
    for (Host h : hosts) {
      String state = h.getState() + (h.getConnected() || h.getState().equals("offline") ? "" : " (offline)")
          + (noisy(h) ? " noisy" : "");
      List<String> row = new ArrayList<>(List.of(
          h.getHostId(), state, orDash(h.getArch()),
          orDash(h.getHypervisorsList().stream().map(HostsCommand::hypervisor).collect(Collectors.joining(" "))),
          String.valueOf(h.getCpus()), h.getMemoryMib() + " MiB",
          orDash(new TreeMap<>(h.getLabelsMap()).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.joining(","))),
          h.getLeasedTo().isEmpty() ? "-" : h.getLeasedTo() + "/" + h.getLeaseEpoch(),
          h.hasHeartbeatAgeMs() ? String.format(Locale.ROOT, "%.1fs ago", h.getHeartbeatAgeMs() / 1000.0) : "-",
          h.hasNoise() ? String.format(Locale.ROOT, "%.2f%%/%d", h.getNoise().getMedianResidualPercent(),
              h.getNoise().getPairs()) : "-",
          h.hasInterference() ? h.getInterference().getInterfered() + "/" + h.getInterference().getBoots() : "-"));
      if (wide) {
        row.addAll(List.of(orDash(h.getFingerprint().getCpuModel()),
            orDash(h.getFingerprint().getHostKernel()),
            orDash(h.getHypervisorsList().stream().filter(c -> !c.getVersion().isEmpty())
                .map(c -> c.getName() + "=" + c.getVersion()).collect(Collectors.joining(","))),
            String.valueOf(h.getRejectedReports())));
      }
      rows.add(row);
    }
    StringBuilder out = new StringBuilder(
        dev.abfleet.report.Numbers.table(rows.stream().map(r -> r.toArray(String[]::new)).toList()));
    hosts.stream().filter(h -> !h.getStateReason().isEmpty()).forEach(h ->
        out.append(h.getHostId()).append(": ").append(h.getState()).append(": ")
            .append(h.getStateReason()).append('\n'));
    hosts.stream().filter(h -> !h.getDrainReason().isEmpty()).forEach(h ->
        out.append(h.getHostId()).append(": drained: ").append(h.getDrainReason()).append('\n'));
    hosts.stream().filter(HostsCommand::noisy).forEach(h ->
        out.append(h.getHostId()).append(": noisy: ").append(h.getInterference().getNoisyReason()).append('\n'));
    return out.toString();
  }

  private static boolean noisy(Host h) {
    return h.hasInterference() && !h.getInterference().getNoisyReason().isEmpty();
  }

  /**
   * e.g. "qemu(tcg)", "qemu(tcg; guests x86_64,aarch64)" when it boots several architectures,
   * "vz(vz; no pinning)" when it cannot pin vCPUs.
   */
  private static String hypervisor(HypervisorCapability c) {
    String accels = c.getAcceleratorsCount() == 0 ? "unusable" : String.join(",", c.getAcceleratorsList());
    String guests = c.getGuestArchesCount() > 1 ? "; guests " + String.join(",", c.getGuestArchesList()) : "";
    String pinning = c.getVcpuPinning().equals("none") ? "; no pinning" : "";
    return c.getName() + "(" + accels + guests + pinning + ")";
  }

  private static String orDash(String s) {
    return s.isEmpty() ? "-" : s;
  }
}
