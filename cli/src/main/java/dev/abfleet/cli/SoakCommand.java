package dev.abfleet.cli;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.config.Problem;
import dev.abfleet.config.SpecFile;
import dev.abfleet.config.SpecFileLoader;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.guest.ConsoleScan;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code abfleet soak}: N boots of one kernel, each running the benchmark, judged on whether every
 * boot completed with a clean console. The boots run as an A/A experiment of the kernel against
 * itself (the controller pairs arms; a soak needs no comparison), so they go through the same
 * staging, boot and console scan as {@code abfleet ab}.
 */
@Command(
    name = "soak",
    mixinStandardHelpOptions = true,
    description = {
      "Boot one kernel N times in fresh VMs, each running the benchmark, and pass only when every boot",
      "completed and no console line matched a problem pattern (default: WARNING:, BUG:, Oops, Call Trace,",
      "hung tasks, lockdep and KASAN/UBSAN reports). The boots run in pairs of the kernel against itself,",
      "so an odd --boots is rounded up to the next even number.",
      "Prints one line per boot and, for each failing one, its run id and why (the failure, or the",
      "console lines quoted), then 'soak: PASS n/n' or 'soak: FAIL ...'.",
      "Example: abfleet soak --kernel /boot/vmlinuz-6.1.0-18-cloud-amd64 --boots 5",
      "         abfleet soak --spec examples/kernel-build/ab.yaml --arm patched --console-pattern 'rcu: INFO:'",
      "Exit codes: 0 pass, 1 a boot failed or printed a finding, 2 bad input, 3 the experiment could not run."
    })
final class SoakCommand implements Callable<Integer> {
  /** The name of the soaked arm given with --kernel, and the suffix of its twin. */
  static final String ARM = "soak";
  static final String TWIN_SUFFIX = "-twin";

  @Option(names = "--kernel", paramLabel = "KERNEL", description = "The kernel image to boot (or --spec).")
  Path kernel;

  @Option(names = "--spec", paramLabel = "FILE",
      description = "Experiment spec file (as ab --spec): its single arm, or the one --arm names, is booted; a build:"
          + " arm is built first.")
  Path spec;

  @Option(names = "--arm", paramLabel = "NAME", description = "With --spec: the arm to boot (needed when it has several).")
  String arm;

  @Option(names = "--boots", defaultValue = "5", paramLabel = "N", description = "Boots (default: ${DEFAULT-VALUE}).")
  int boots;

  @Option(names = "--benchmark", paramLabel = "NAME", description = "Benchmark from fleet.yaml (default: default_benchmark).")
  String benchmark;

  @Option(names = "--console-pattern", paramLabel = "REGEX",
      description = "A Java regular expression a console line must not match (repeatable); replaces the default list.")
  List<String> consolePatterns;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--config", paramLabel = "FILE", description = "fleet.yaml (default: the built-in one).")
  Path config;

  @Option(names = "--boot-timeout", paramLabel = "SECONDS", description = "Kill a boot after this long"
      + " (default: policy.boot_timeout_s; unset there = adaptive to the benchmark and the"
      + " experiment's completed boots).")
  Integer bootTimeout;

  @Option(names = "--controller", paramLabel = "HOST:PORT[,...]",
      description = "Run on this running controller's workers instead of an embedded fleet; the kernel is uploaded.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  @Override
  public Integer call() {
    return run(System.out, System.err);
  }

  int run(PrintStream out, PrintStream err) {
    if (!format.equals("text") && !format.equals("json")) {
      throw new Problem("--format " + format + ": expected text or json");
    }
    AbRequest request;
    try {
      request = ArmBuilds.resolve(request(), err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("abfleet soak: interrupted while building the kernel; nothing was submitted");
      return ExitCodes.FAILED;
    } catch (FleetArmBuilds.InfraFailure e) {
      err.println("abfleet: " + e.getMessage());
      return ExitCodes.FAILED;
    }
    Experiment done = request.hosts().remote() ? runRemote(request, err) : runLocal(request, err);
    if (done == null) {
      return ExitCodes.FAILED;
    }
    SoakResult result = SoakResult.of(done);
    out.print(format.equals("json") ? result.json() : result.text());
    out.flush();
    if (result.boots().isEmpty() && !done.getState().equals("completed")) {
      return ExitCodes.FAILED;
    }
    return result.passed() ? ExitCodes.OK : ExitCodes.GATE;
  }

  /** The validated request: the arm and its twin, ceil(boots / 2) pairs, a fixed design. */
  AbRequest request() {
    if (boots < 1 || boots > 10_000) {
      throw new Problem("--boots " + boots + ": expected 1 to 10000");
    }
    List<String> patterns = consolePatterns == null ? List.of() : consolePatterns;
    ConsoleScan.problem(patterns).ifPresent(p -> {
      throw new Problem("--console-pattern: " + p);
    });
    if (controller != null) {
      ControllerAddress.check(controller, auth);
    }
    AbHosts hosts = AbHosts.of(controller, "adhoc", null, null, null, null);
    FleetConfig cfg = config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config);
    AbArm soaked;
    String benchmarkName = benchmark;
    if ((kernel == null) == (spec == null)) {
      throw new Problem("give one of --kernel KERNEL or --spec FILE, e.g. abfleet soak --kernel /boot/vmlinuz --boots 5");
    }
    if (kernel != null) {
      if (arm != null) {
        throw new Problem("--arm picks an arm of --spec; with --kernel drop it");
      }
      soaked = AbArm.fromFlags(new ArmArg(ARM, kernel, ""), List.of(), null, cfg.vm(), AbArm.VmFlags.NONE).get(0);
    } else {
      SpecFile file = SpecFileLoader.load(spec, cfg);
      soaked = pick(AbArm.fromSpec(file, cfg.vm(), AbArm.VmFlags.NONE));
      benchmarkName = benchmark != null ? benchmark : file.benchmark();
      cfg = file.applyTo(cfg, benchmarkName);
    }
    List<AbArm> arms = new ArrayList<>();
    arms.add(as(soaked, soaked.name(), "baseline"));
    arms.add(as(soaked, soaked.name() + TWIN_SUFFIX, "candidate"));
    return new AbRequest(arms, cfg, benchmarkName, null, (boots + 1) / 2, null, null, null, null, null, bootTimeout,
        false, hosts);
  }

  private AbArm pick(List<AbArm> arms) {
    if (arm == null) {
      if (arms.size() != 1) {
        throw new Problem("--spec " + spec + " has " + arms.size() + " arms " + arms.stream().map(AbArm::name).toList()
            + "; pick one with --arm NAME");
      }
      return arms.get(0);
    }
    return arms.stream().filter(a -> a.name().equals(arm)).findFirst().orElseThrow(() -> new Problem(
        "--arm " + arm + ": --spec " + spec + " has no such arm; expected one of "
            + arms.stream().map(AbArm::name).toList()));
  }

  private static AbArm as(AbArm a, String name, String role) {
    return new AbArm(name, role, a.kernel(), a.cmdlineExtra(), a.modules(), a.modulesDir(), a.volumeOptions(),
        a.vcpus(), a.memoryMib(), a.pinVcpus(), a.origin(), a.build(), a.built());
  }

  private ExperimentSpec spec(AbRequest request, List<String> hostIds) {
    return request.toSpec(hostIds).toBuilder()
        .setName("soak-" + request.arms().get(0).name())
        .addAllConsolePatterns(consolePatterns == null ? List.of() : consolePatterns)
        .build();
  }

  private Experiment runLocal(AbRequest request, PrintStream err) {
    Path home = WorkerSettings.defaultHome();
    try (LocalFleet fleet = LocalFleet.start(request.config(), home, 1, err);
        ExperimentClient client = new ExperimentClient(fleet.target(), dev.abfleet.worker.link.ChannelSecurity.DEFAULT)) {
      String id = client.submit("", ExperimentClient.prepared(spec(request, fleet.hostIds()), home));
      return watch(client, id, request, err);
    }
  }

  private Experiment runRemote(AbRequest request, PrintStream err) {
    String target = request.hosts().controller();
    try (ExperimentClient client = new ExperimentClient(target, Reconnect.standard(target, err))) {
      String id = client.submitUploading("", spec(request, List.of()), err);
      return watch(client, id, request, err);
    }
  }

  private Experiment watch(ExperimentClient client, String id, AbRequest request, PrintStream err) {
    int pairs = request.pairs();
    err.println("abfleet: soak experiment " + id + " submitted: " + 2 * pairs + " boots of "
        + request.arms().get(0).name() + (2 * pairs != boots ? " (--boots " + boots + " rounded up to pairs)" : ""));
    Thread cancel = new Thread(() -> {
      try {
        client.cancel(id, "abfleet soak interrupted");
      } catch (RuntimeException e) {
        // The controller is unreachable or going down with us; the experiment stays as recorded.
      }
    });
    Runtime.getRuntime().addShutdownHook(cancel);
    try {
      return client.watch(id, new Progress(err)::onChange);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(cancel);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: the experiment is being cancelled.
      }
    }
  }
}
