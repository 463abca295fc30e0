package dev.abfleet.worker.vm.vz;

import dev.abfleet.model.Arch;

import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.worker.guest.ConsoleSetupErrors;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.Executables;
import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.process.TextTail;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.GuestOutputCaps;
import dev.abfleet.worker.vm.VmDriver;
import dev.abfleet.worker.vm.VolumeTransport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Boots arm64 Linux guests under Apple Virtualization.framework through vfkit. Available only
 * on macOS on Apple silicon with vfkit installed; elsewhere {@link #accelerators()} is empty
 * and {@link #unavailableReason()} says why. The accelerator is reported as {@code vz}.
 *
 * <p>Per boot, {@code workDir} receives {@code console.log}, {@code vfkit.stdout}/{@code .stderr}
 * and the shared directory {@code share/}, where the harness writes {@code results.jsonl}
 * (see {@link VfkitArgs}). A VM whose console or results file grows past its
 * {@link GuestOutputCaps cap} is killed.
 *
 * <p>The results share is itself set up by the guest's /init, which fails when the kernel has no
 * virtiofs. /init then writes its {@code setup_error} on the console too, and when the guest left
 * no results file the driver copies those console lines to {@code setup-errors.jsonl} beside the
 * console and returns that as the results log: the boot is then a configuration error, not a
 * kernel that failed to boot.
 *
 * <p>Not verified on a Mac: on Linux, the availability rules are unit-tested and {@link #boot}
 * runs end to end against a fake vfkit that checks the argv and plays back an arm64 guest
 * recorded under QEMU with VZ's devices ({@code VzDriverFakeVfkitTest}); the guest side
 * (/init mounting the share, fleetbench writing to it) ran for real under QEMU only.
 */
public final class VzDriver implements VmDriver {

  /** virtio-fs tag of the per-boot shared directory. */
  public static final String SHARE_TAG = "abfleet";

  /** Where the console's setup_error lines go when the guest left no results file. */
  static final String SETUP_ERRORS_FILE = "setup-errors.jsonl";

  /** Console lines searched for setup errors: /init's report comes right before the power-off. */
  private static final int CONSOLE_SCAN_LINES = 200;

  private final String osName;
  private final String osArch;
  private final Function<String, Optional<Path>> which;
  private final CommandRunner runner;

  /**
   * @param osName Java's {@code os.name}
   * @param osArch Java's {@code os.arch}
   * @param which  resolves a program name to its path (empty when not installed)
   * @param runner starts vfkit
   */
  public VzDriver(String osName, String osArch, Function<String, Optional<Path>> which, CommandRunner runner) {
    this.osName = osName;
    this.osArch = osArch;
    this.which = which;
    this.runner = runner;
  }

  /** The driver for this host. */
  public static VzDriver forThisHost() {
    return new VzDriver(System.getProperty("os.name"), System.getProperty("os.arch"),
        Executables::onPath, new ProcessRunner());
  }

  @Override
  public String name() {
    return "vz";
  }

  @Override
  public List<String> accelerators() {
    return unavailableReason().isPresent() ? List.of() : List.of("vz");
  }

  /**
   * What the guest needs before /init can report anything: VZ's devices are virtio-pci, the
   * console is {@code hvc0} and the results go to a virtio-fs share. Debian's arm64 cloud kernel
   * has all four as modules; a kernel with them built in needs none of them loaded.
   */
  @Override
  public List<String> guestModules(String arch) {
    return List.of("virtio_pci", "virtio_console", "fuse", "virtiofs");
  }

  /** VZ shares directories with its built-in virtio-fs device; nothing to install. */
  @Override
  public List<String> volumeTransports() {
    return unavailableReason().isPresent() ? List.of() : List.of(VolumeTransport.VIRTIOFS.wire());
  }

  /** VZ does not expose its vCPU threads: pinned arms are leased to other hypervisors only. */
  @Override
  public boolean pinsVcpus() {
    return false;
  }

  /** Why this host cannot use VZ, or empty when it can. */
  public Optional<String> unavailableReason() {
    if (!osName.startsWith("Mac")) {
      return Optional.of("Apple Virtualization.framework needs macOS; this host runs " + osName);
    }
    if (Arch.of(osArch).orElse(null) != Arch.AARCH64) {
      return Optional.of("abfleet boots arm64 guests on VZ, which needs Apple silicon; this Mac is " + osArch);
    }
    if (which.apply("vfkit").isEmpty()) {
      return Optional.of("vfkit not found: brew install vfkit");
    }
    return Optional.empty();
  }

  @Override
  public BootOutcome boot(BootRequest req) throws InterruptedException {
    Path console = req.workDir().resolve("console.log");
    Path share = req.workDir().resolve("share");
    Path results = share.resolve(VfkitArgs.RESULTS_FILE);
    Optional<String> unavailable = unavailableReason();
    if (unavailable.isPresent()) {
      return BootOutcome.notStarted(console, results, unavailable.get());
    }
    if (req.pinVcpus()) {
      return BootOutcome.notStarted(console, results,
          "VZ cannot pin vCPU threads to host CPUs; run pinned arms on the qemu hypervisor");
    }
    if (!req.arch().equals("aarch64")) {
      return BootOutcome.notStarted(console, results,
          "VZ boots aarch64 guests only; got arch " + req.arch() + ": use the qemu hypervisor for it");
    }
    KernelImage.Inspection k = KernelImage.inspect(req.kernel());
    if (!k.ok() || !"aarch64".equals(k.arch())) {
      return BootOutcome.notStarted(console, results, k.ok()
          ? req.kernel() + " is an " + k.arch() + " kernel; VZ needs an uncompressed arm64 Image"
          : k.problem());
    }
    List<String> argv;
    try {
      Files.createDirectories(share);
      argv = VfkitArgs.build(new VfkitLaunch(which.apply("vfkit").orElseThrow().toString(),
          req.vcpus(), req.memoryMib(), req.kernel(), req.initrd(), req.guestParams(),
          req.cmdlineExtra(), console, share, SHARE_TAG, 0, null,
          req.volume() == null ? null : req.volume().hostDir()));
    } catch (IllegalArgumentException e) {
      return BootOutcome.notStarted(console, results, e.getMessage());
    } catch (IOException e) {
      return BootOutcome.notStarted(console, results, "cannot create " + share + ": " + e);
    }
    RunResult r = runner.run(argv, req.workDir(), "vfkit", req.timeout(), GuestOutputCaps.of(console, results),
        GuestOutputCaps.endOf(results));
    if (r.interrupted()) {
      Thread.interrupted(); // the exception below carries the interrupt
      throw new InterruptedException("boot " + req.runId() + " interrupted; VM killed");
    }
    String consoleTail = TextTail.of(console, TextTail.DEFAULT_LINES);
    String launchError = r.launchError();
    if (launchError == null && !r.timedOut() && r.overCap() == null && !r.stoppedAfterEnd() && r.exitCode() != 0
        && consoleTail.isBlank()) {
      launchError = "vfkit failed before the guest started (exit " + r.exitCode() + "): " + r.stderrTail().strip();
    }
    return new BootOutcome("vz", r.exitCode(), r.timedOut(), r.wall(), console,
        resultsLog(results, console, req.workDir()), consoleTail, launchError, r.overCap());
  }

  /**
   * {@code results} when the guest wrote it; else, when /init reported setup errors on the
   * console (the share may be what failed), a file holding those lines; else {@code results}.
   */
  static Path resultsLog(Path results, Path console, Path workDir) {
    try {
      if (Files.exists(results) && Files.size(results) > 0) {
        return results;
      }
      List<String> setupErrors = ConsoleSetupErrors.lines(TextTail.of(console, CONSOLE_SCAN_LINES));
      if (setupErrors.isEmpty()) {
        return results;
      }
      return Files.write(workDir.resolve(SETUP_ERRORS_FILE), setupErrors);
    } catch (IOException e) {
      return results;
    }
  }
}
