package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.stats.DesignCheck;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.DebianKernels;
import dev.abfleet.worker.process.ProcessRunner;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code abfleet demo}: a real A/B on real Debian kernels with a candidate of known cost. The
 * candidate boots the same kernel with {@code slub_debug=FZPU}, which turns on slab
 * red-zoning, poisoning and user tracking: every slab allocation and free does extra work,
 * so create_delete and metadata_stat slow down several-fold. A correct tool must call those
 * regressions.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {
      "Download a real Debian kernel (apt-get download), then run 'ab' with the stock kernel as",
      "baseline and the same kernel with slub_debug=FZPU (a known slab-path cost) as candidate.",
      "With --host-volume: Debian's generic kernel (9p as modules) on the host-volume benchmark,",
      "the candidate mounting the 9p share with cache=loose (a real change of the 9p metadata",
      "path: attributes served from the guest's cache)."
    })
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--package", defaultValue = "linux-image-6.1.0-50-cloud-amd64", paramLabel = "DEB",
      description = "Kernel package to download (default: ${DEFAULT-VALUE}).")
  String kernelPackage;

  @Option(names = "--candidate-args", defaultValue = "slub_debug=FZPU", paramLabel = "ARGS",
      description = "Extra kernel arguments of the candidate (default: ${DEFAULT-VALUE}).")
  String candidateArgs;

  @Option(names = "--pairs", defaultValue = "10", paramLabel = "N",
      description = "Boot pairs (default: ${DEFAULT-VALUE}: with 4 gating metrics, one pair in ten may go the wrong way and a several-fold regression is still called).")
  int pairs;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT", description = "text, json, markdown or html.")
  String format;

  @Option(names = "--config", paramLabel = "FILE", description = "fleet.yaml (default: the built-in one).")
  Path config;

  @Option(names = "--host-volume", description = "The host-volume demo (9p share, cache=loose candidate).")
  boolean hostVolume;

  /** The generic kernel: the cloud kernel has no 9p. */
  static final String HOST_VOLUME_PACKAGE = "linux-image-6.1.0-50-amd64";
  static final String HOST_VOLUME_BENCHMARK = "host-volume";
  static final String LOOSE = "cache=loose";

  @Override
  public Integer call() {
    FleetConfig cfg = config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config);
    ReportFormat fmt = ReportFormat.parse(format);
    if (hostVolume && kernelPackage.equals("linux-image-6.1.0-50-cloud-amd64")) {
      kernelPackage = HOST_VOLUME_PACKAGE;
    }
    // Before the download: a design that cannot decide is refused without fetching anything.
    DesignCheck.Result design = AbRequest.design(cfg, hostVolume ? HOST_VOLUME_BENCHMARK : null, null, pairs, null,
        null, 1, false);
    AbRequest.refuseUndecidable(design);
    AbRequest.warnDesign(design, System.err);
    Path home = WorkerSettings.defaultHome();
    System.err.println("abfleet demo: fetching " + kernelPackage + " (apt-get download) into " + home.resolve("kernels"));
    Path kernel;
    try {
      kernel = new DebianKernels(new ProcessRunner()).fetch(kernelPackage, home);
    } catch (java.io.IOException e) {
      throw new Problem(e.getMessage());
    }
    if (hostVolume) {
      return hostVolume(cfg, fmt, kernel);
    }
    System.err.println("abfleet demo: baseline 'stock' = " + kernel);
    System.err.println("abfleet demo: candidate 'slub_debug' = same kernel + " + candidateArgs);
    AbRequest request = new AbRequest(
        new ArmArg("stock", kernel, ""),
        List.of(new ArmArg("slub_debug", kernel, candidateArgs)), null,
        cfg, null, null, pairs, null, null, null, null, null, null, null,
        AbHosts.of(null, null, null, null, null, null));
    return AbSession.run(request, fmt, false, 1, System.out, System.err);
  }

  /** Stock against the same kernel mounting the host volume with cache=loose. */
  private int hostVolume(FleetConfig cfg, ReportFormat fmt, Path kernel) {
    System.err.println("abfleet demo: benchmark " + HOST_VOLUME_BENCHMARK + " (9p share), baseline"
        + " 'stock' = " + kernel + ", candidate 'loose' = same kernel, volume_options " + LOOSE);
    FleetConfig.Vm vm = cfg.vm();
    List<AbArm> arms = List.of(
        new AbArm("stock", "baseline", kernel, "", List.of(), "", "", vm.vcpus(), vm.memoryMib(),
            vm.pinVcpus(), "demo"),
        new AbArm("loose", "candidate", kernel, "", List.of(), "", LOOSE, vm.vcpus(),
            vm.memoryMib(), vm.pinVcpus(), "demo"));
    AbRequest request = new AbRequest(arms, cfg, HOST_VOLUME_BENCHMARK, null, pairs, null, null,
        null, null, null, null, null, AbHosts.of(null, null, null, null, null, null));
    return AbSession.run(request, fmt, false, 1, System.out, System.err);
  }
}
