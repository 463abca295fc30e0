package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.config.SpecFile;
import dev.abfleet.config.SpecFileLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code abfleet ab}: one A/B experiment, on this machine (an embedded controller and local
 * workers over loopback gRPC) or submitted to a running fleet with {@code --controller}.
 */
@Command(
    name = "ab",
    mixinStandardHelpOptions = true,
    description = {
      "Boot a baseline and a candidate kernel back to back in fresh QEMU VMs, pair after pair,",
      "and print a verdict per metric. Starts an embedded controller and a local worker that",
      "talk over gRPC on loopback. Progress goes to stderr; stdout carries only the report.",
      "With --controller HOST:PORT the experiment is submitted to that running controller and runs on",
      "its workers (no local worker): the kernels are uploaded to its artifact store and the workers",
      "stage them by sha256.",
      "Ctrl-C cancels the submitted experiment (reason: abfleet ab interrupted).",
      "--spec FILE takes the whole experiment from a YAML spec file (arms with their own kernel, cmdline,",
      "modules, volume options and VM shape, e.g. a hard-pinned ceiling); options given as well override it.",
      "An arm with build: {source, patches, config, ...} instead of kernel: is built from source before",
      "the first boot (here, or by the fleet's builders with --controller); a build that fails ends the",
      "command with one line naming the arm, the file and the first error (exit 2).",
      "Cross-host comparisons (--controller only): --hypervisor qemu,vz and/or --class-by judge pairs",
      "per host class, with a pooled row flagged class_heterogeneity when the classes disagree; --pairs",
      "and --looks then count per class.",
      "Exit codes: 0 done (with --gate: the gate passed), 1 a gating metric regressed (with --gate),",
      "2 bad input, 3 the experiment failed or was cancelled, 4 the gate is inconclusive (with --gate)."
    })
final class AbCommand implements Callable<Integer> {
  @Option(names = "--spec", paramLabel = "FILE",
      description = "Experiment spec file (YAML): benchmark, pairs or looks, vm defaults, volume (transport:"
          + " virtiofs|9p|auto, cache: auto|always|none), an optional workload (files, run, output, timeout_s) and"
          + " arms (name, role, kernel or build, cmdline, modules, volume_options, volume, vm);"
          + " see docs/commands.md. Options given as well override its values; the arms come from the file alone.")
  Path spec;

  @Option(names = "--baseline", paramLabel = "NAME=KERNEL[:ARGS]",
      description = "Baseline arm: a name, a kernel image, optional extra kernel arguments (required without --spec).")
  String baseline;

  @Option(names = "--candidate", paramLabel = "NAME=KERNEL[:ARGS]",
      description = "Candidate arm, same form, e.g. slub=/boot/vmlinuz:slub_debug=FZPU; repeat for several"
          + " (error control spans them all; required without --spec).")
  List<String> candidates;

  @Option(names = "--ceiling", paramLabel = "NAME=KERNEL[:ARGS]",
      description = "Optional ceiling arm (the best achievable, e.g. hard-pinned): never gating; each candidate"
          + " is reported as a fraction of it.")
  String ceiling;

  @Option(names = "--pairs", paramLabel = "N", description = "Boot pairs (default: fleet.yaml policy.pairs).")
  Integer pairs;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
      description = "text, json, markdown or html (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--gate", description = "Exit 0 when the gate passes (every gating metric improved, no_change"
      + " or holds: nothing worse than the threshold), 1 when one regressed, 4 when the gate is inconclusive.")
  boolean gate;

  @Option(names = "--config", paramLabel = "FILE", description = "fleet.yaml (default: the built-in one).")
  Path config;

  @Option(names = "--benchmark", paramLabel = "NAME", description = "Benchmark from fleet.yaml (default: default_benchmark).")
  String benchmark;

  @Option(names = "--metrics", split = ",", paramLabel = "M", description = "Only these metrics (comma-separated).")
  List<String> metrics;

  @Option(names = "--looks", split = ",", paramLabel = "N",
      description = "Sequential design: pair counts at which to stop once every gating metric is decided, e.g. 8,16,24 (the last is the most pairs run).")
  List<Integer> looks;

  @Option(names = "--threshold", paramLabel = "R", description = "Noise threshold, relative (default: fleet.yaml, 0.02).")
  Double threshold;

  @Option(names = "--alpha", paramLabel = "A", description = "Family-wise significance level (default: fleet.yaml, 0.05).")
  Double alpha;

  @Option(names = "--seed", paramLabel = "S", description = "Seed of the AB/BA order shuffle (default: drawn, recorded).")
  Long seed;

  @Option(names = "--iterations", paramLabel = "N", description = "Measured iterations per metric per boot.")
  Integer iterations;

  @Option(names = "--vcpus", paramLabel = "N",
      description = "vCPUs of every arm's VM (default: the spec file, then fleet.yaml vm.vcpus).")
  Integer vcpus;

  @Option(names = "--pin",
      description = "Pin every vCPU thread of every arm to a host CPU of its own (only hosts with at least as many"
          + " CPUs as vCPUs run it); to pin one arm, e.g. a ceiling, set vm.pin_vcpus in a spec file.")
  boolean pin;

  @Option(names = "--boot-timeout", paramLabel = "SECONDS", description = "Kill a boot after this long"
      + " (default: policy.boot_timeout_s; unset there = adaptive to the benchmark and the"
      + " experiment's completed boots).")
  Integer bootTimeout;

  @Option(names = "--warmup-boot", negatable = true,
      description = "Start the first block on each freshly leased host with one extra baseline boot that is reported"
          + " as a warm-up and never counted (default: fleet.yaml policy.warmup_boot, false).")
  Boolean warmupBoot;

  @Option(names = "--local-workers", paramLabel = "N",
      description = "Local worker agents of the embedded fleet (each one VM at a time; default: 1);"
          + " not with --controller.")
  Integer localWorkers;

  @Option(names = "--controller", paramLabel = "HOST:PORT[,...]",
      description = "Submit to this running controller (abfleet controller; several addresses = the nodes"
          + " of a controller cluster) instead of starting an embedded one; the kernels are uploaded to it.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;


  @Option(names = "--priority", paramLabel = "P",
      description = "pr, adhoc or nightly, highest first: a free host takes the queued blocks of the"
          + " highest priority first (default: pr).")
  String priority;

  @Option(names = "--hypervisor", split = ",", paramLabel = "H",
      description = "Hypervisors a host may use, comma-separated: qemu, vz, sim (default: qemu). Several"
          + " (e.g. qemu,vz) make a cross-host comparison; sim (simulated hosts, placeholder kernels) only"
          + " alone; several or sim need --controller.")
  List<String> hypervisor;

  @Option(names = "--arch", paramLabel = "ARCH",
      description = "Run on hosts of this CPU architecture: x86_64 or aarch64 (default: any host whose hypervisor"
          + " boots the kernels' architecture, emulated if need be). The kernels must be of it.")
  String arch;

  @Option(names = "--label", paramLabel = "KEY=VALUE",
      description = "Run only on hosts with this label (repeatable, every one must match); needs --controller.")
  List<String> label;

  @Option(names = "--class-by", split = ",", paramLabel = "DIM",
      description = "Judge pairs per host class, comma-separated dimensions: cpu_model, arch, host_kernel,"
          + " hypervisor_version (or qemu_version), label:KEY"
          + " (hypervisor always separates classes); needs --controller.")
  List<String> classBy;

  @Override
  public Integer call() {
    return run(System.out, System.err);
  }

  /** The command with its output streams: the report to {@code out}, progress to {@code err}. */
  int run(java.io.PrintStream out, java.io.PrintStream err) {
    AbRequest request = request();
    AbRequest.warnDesign(request.design(), err);
    try {
      request = ArmBuilds.resolve(request, err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("abfleet ab: interrupted while building kernels; nothing was submitted");
      return ExitCodes.FAILED;
    } catch (FleetArmBuilds.InfraFailure e) {
      err.println("abfleet: " + e.getMessage());
      return ExitCodes.FAILED;
    }
    AbHosts hosts = request.hosts();
    ReportFormat fmt = ReportFormat.parse(format);
    if (hosts.remote()) {
      return AbSession.runRemote(request, fmt, gate, out, err);
    }
    int workers = localWorkers == null ? 1 : localWorkers;
    if (workers < 1 || workers > 64) {
      throw new Problem("--local-workers " + workers + ": expected 1 to 64");
    }
    return AbSession.run(request, fmt, gate, workers, out, err);
  }

  /** The validated request the options describe (nothing is started). */
  AbRequest request() {
    if (controller != null) {
      ControllerAddress.check(controller, auth);
    }
    AbHosts hosts = AbHosts.of(controller, priority, hypervisor, label, classBy, localWorkers).withArch(arch);
    FleetConfig cfg = config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config);
    if (vcpus != null && (vcpus < 1 || vcpus > 512)) {
      throw new Problem("--vcpus " + vcpus + ": expected 1 to 512");
    }
    AbArm.VmFlags vm = new AbArm.VmFlags(vcpus, pin);
    return spec == null ? fromFlags(cfg, vm, hosts) : fromSpec(SpecFileLoader.load(spec, cfg), cfg, vm, hosts);
  }

  private AbRequest fromFlags(FleetConfig cfg, AbArm.VmFlags vm, AbHosts hosts) {
    if (baseline == null || candidates == null) {
      throw new Problem("--baseline and --candidate are required (or --spec FILE naming the arms), e.g. --baseline"
          + " stock=/boot/vmlinuz --candidate slub=/boot/vmlinuz:slub_debug=FZPU");
    }
    List<AbArm> arms = AbArm.fromFlags(ArmArg.parse("--baseline", baseline),
        candidates.stream().map(c -> ArmArg.parse("--candidate", c)).toList(),
        ceiling == null ? null : ArmArg.parse("--ceiling", ceiling), cfg.vm(), vm);
    return new AbRequest(arms, cfg, benchmark, metrics, pairs, looks, threshold, alpha, seed, iterations, bootTimeout,
        warmupBoot, hosts);
  }

  /** The spec file's experiment; each option given as well overrides the file's value. */
  private AbRequest fromSpec(SpecFile file, FleetConfig cfg, AbArm.VmFlags vm, AbHosts hosts) {
    if (baseline != null || candidates != null || ceiling != null) {
      throw new Problem("--spec " + spec + " names the arms; drop --baseline, --candidate and --ceiling, or put"
          + " those arms in the file");
    }
    // A design is pairs or looks: one given on the command line replaces the file's design.
    boolean designFlag = pairs != null || looks != null;
    String benchmarkName = benchmark != null ? benchmark : file.benchmark();
    return new AbRequest(AbArm.fromSpec(file, cfg.vm(), vm), file.applyTo(cfg, benchmarkName), benchmarkName,
        metrics != null ? metrics : file.metrics(),
        designFlag ? pairs : file.pairs(),
        designFlag ? looks : file.looks(),
        threshold != null ? threshold : file.threshold(),
        alpha != null ? alpha : file.alpha(),
        seed != null ? seed : file.seed(),
        iterations != null ? iterations : file.iterations(),
        bootTimeout != null ? bootTimeout : file.bootTimeoutS(),
        warmupBoot != null ? warmupBoot : file.warmupBoot(),
        hosts);
  }
}
