package dev.abfleet.worker.modules;

import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * Picks the kernel modules a boot's guest must load and reads them, uncompressed, for the
 * initramfs. The tree is the one named by the arm ({@code modules_dir}) or the one beside the
 * kernel ({@link ModuleTree#beside}); modules come with their dependencies from its
 * modules.dep, in load order; modules built into the kernel (modules.builtin) need nothing.
 *
 * <p>Compressed modules ({@code .ko.gz}, {@code .ko.xz}, {@code .ko.zst}) are decompressed on
 * the host (gzip in Java, the others with the host's {@code xz} and {@code zstd}), so the
 * guest's busybox insmod only ever sees plain ELF files.
 */
public final class GuestModules {

  /** The package the error messages suggest for host volumes: its kernel has 9p and virtio-fs as modules. */
  public static final String KERNEL_WITH_VOLUME_MODULES = "Debian's linux-image-6.1.0-50-amd64";

  private static final Duration DECOMPRESS_TIMEOUT = Duration.ofMinutes(1);

  private final Path cacheDir;
  private final CommandRunner runner;

  /**
   * @param cacheDir abfleet cache root (depmod output and decompression scratch go below it)
   * @param runner runs depmod, xz and zstd
   */
  public GuestModules(Path cacheDir, CommandRunner runner) {
    this.cacheDir = cacheDir;
    this.runner = runner;
  }

  /**
   * What the modules of one boot need.
   *
   * @param kernel the kernel as the arm names it on this host (not the cached copy): the
   *     module tree is looked for beside it
   * @param modulesDir the arm's module tree; empty = beside the kernel
   * @param forVolume modules the volume transport needs (e.g. 9p, 9pnet_virtio, virtio_pci)
   * @param transport the volume transport, for messages; empty when {@code forVolume} is empty
   * @param forArm modules the arm asks for by name
   * @param forDevices modules the hypervisor's guest devices need (e.g. the virtio console that
   *     carries the results on arm64); like the volume's, taken as built in when no tree is found
   */
  public record Request(Path kernel, String modulesDir, List<String> forVolume, String transport, List<String> forArm,
      List<String> forDevices) {
    public Request {
      modulesDir = modulesDir == null ? "" : modulesDir;
      forVolume = List.copyOf(forVolume);
      forArm = List.copyOf(forArm);
      transport = transport == null ? "" : transport;
      forDevices = List.copyOf(forDevices);
    }

    /** A request with no modules for the hypervisor's devices. */
    public Request(Path kernel, String modulesDir, List<String> forVolume, String transport, List<String> forArm) {
      this(kernel, modulesDir, forVolume, transport, forArm, List.of());
    }
  }

  /** The outcome: modules to load, in order, or why the arm cannot run as configured. */
  public sealed interface Selection {
    /**
     * @param modules in load order; empty when everything needed is built in or nothing is
     * @param tree the tree they came from; null when none was used
     */
    record Ready(List<GuestModule> modules, ModuleTree tree) implements Selection {
      public Ready {
        modules = List.copyOf(modules);
      }
    }

    /** @param message one line naming what is missing and the fix: a configuration error */
    record Unavailable(String message) implements Selection {}
  }

  /**
   * Selects and reads the modules for {@code req}. With no tree beside the kernel and none named,
   * the volume's modules are taken to be built in (a custom kernel built with 9p=y has no tree);
   * the guest checks that the file system is there before it mounts, and says so when it is not.
   *
   * @throws IOException a tree or module file cannot be read, or depmod, xz or zstd failed: a
   *     host problem, not the arm's
   */
  public Selection select(Request req) throws IOException, InterruptedException {
    if (req.forVolume().isEmpty() && req.forArm().isEmpty() && req.forDevices().isEmpty()) {
      return new Selection.Ready(List.of(), null);
    }
    Optional<ModuleTree> found = req.modulesDir().isEmpty()
        ? ModuleTree.beside(req.kernel()) : Optional.of(ModuleTree.at(Path.of(req.modulesDir())));
    if (found.isPresent() && !Files.isDirectory(found.get().dir())) {
      return new Selection.Unavailable("module tree " + found.get().dir() + " (the arm's modules_dir) is not a"
          + " directory on this host; pass the kernel's lib/modules/<release> directory");
    }
    if (found.isEmpty()) {
      if (!req.forArm().isEmpty()) {
        return new Selection.Unavailable("the arm asks for modules " + String.join(", ", req.forArm())
            + " but no module tree lies beside " + req.kernel() + " (expected <root>/lib/modules/<release> for"
            + " <root>/boot/vmlinuz-<release>): set the arm's modules_dir");
      }
      return new Selection.Ready(List.of(), null);
    }
    ModuleTree tree = found.get();
    Optional<String> kernelRelease = KernelImage.release(req.kernel());
    if (kernelRelease.isPresent() && !kernelRelease.get().equals(tree.release())) {
      return new Selection.Unavailable("module tree " + tree.dir() + " is for kernel release " + tree.release()
          + " but " + req.kernel() + " is " + kernelRelease.get() + ": point modules_dir at lib/modules/"
          + kernelRelease.get());
    }
    ModuleTree.Index index = tree.index(cacheDir, runner);
    List<String> wanted = new ArrayList<>(req.forDevices());
    wanted.addAll(req.forVolume());
    wanted.addAll(req.forArm());
    ModuleResolution r = ModuleResolution.resolve(index.dep(), index.builtIn(), wanted);
    if (!r.complete()) {
      return new Selection.Unavailable(missingMessage(kernelRelease.orElse(tree.release()), tree, r.missing(), req));
    }
    List<GuestModule> modules = new ArrayList<>();
    for (String path : r.loadOrder()) {
      modules.add(read(tree, path));
    }
    return new Selection.Ready(modules, tree);
  }

  /**
   * The one line for modules a kernel lacks, e.g. "kernel 6.1.0-50-cloud-amd64 has no module 9p
   * (...); the host-volume benchmark needs it for its 9p share: use a kernel that has it, e.g.
   * Debian's linux-image-6.1.0-50-amd64".
   */
  static String missingMessage(String release, ModuleTree tree, List<String> missing, Request req) {
    String them = missing.size() == 1 ? "it" : "them";
    String what = (missing.size() == 1 ? "module " : "modules ") + String.join(", ", missing);
    String where = " (not in the modules.dep or modules.builtin of " + tree.dir() + ")";
    String need;
    if (anyOf(missing, req.forDevices())) {
      need = "; the VM's devices need " + them + " (the results channel is a virtio console): use a kernel that has "
          + them + " built in or as modules";
    } else if (anyOf(missing, req.forVolume())) {
      need = "; the host-volume benchmark needs " + them + " for its " + req.transport() + " share: use a kernel that"
          + " has " + them + ", e.g. " + KERNEL_WITH_VOLUME_MODULES;
    } else {
      need = "; the arm's modules list asks for " + them + ": use a kernel that has " + them + " or drop " + them
          + " from the list";
    }
    return "kernel " + release + " has no " + what + where + need;
  }

  private static boolean anyOf(List<String> missing, List<String> wanted) {
    return missing.stream().anyMatch(m -> wanted.stream().map(ModulesDep::normalize).anyMatch(m::equals));
  }

  private GuestModule read(ModuleTree tree, String relative) throws IOException, InterruptedException {
    Path file = tree.file(relative);
    String base = file.getFileName().toString();
    if (base.endsWith(".ko")) {
      return new GuestModule(base, Files.readAllBytes(file));
    }
    if (base.endsWith(".ko.gz")) {
      try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
        return new GuestModule(strip(base, ".gz"), in.readAllBytes());
      }
    }
    if (base.endsWith(".ko.xz")) {
      return new GuestModule(strip(base, ".xz"), decompress(List.of("xz", "-dc", file.toString()), file, "xz-utils"));
    }
    if (base.endsWith(".ko.zst")) {
      return new GuestModule(strip(base, ".zst"), decompress(List.of("zstd", "-dcq", file.toString()), file, "zstd"));
    }
    throw new IOException("module file " + file + " named by modules.dep is not a .ko, .ko.gz, .ko.xz or .ko.zst");
  }

  private byte[] decompress(List<String> argv, Path file, String pkg) throws IOException, InterruptedException {
    Path scratch = Files.createDirectories(cacheDir.resolve("modules").resolve("scratch"));
    Path work = Files.createTempDirectory(scratch, "unpack-");
    try {
      RunResult r = runner.run(argv, work, "decompress", DECOMPRESS_TIMEOUT);
      if (r.interrupted()) {
        Thread.interrupted(); // the exception below carries the interrupt
        throw new InterruptedException("decompressing " + file + " interrupted");
      }
      if (!r.succeeded()) {
        throw new IOException(String.join(" ", argv) + " failed: "
            + (r.launchError() != null ? r.launchError() + "; apt-get install " + pkg
                : "exit " + r.exitCode() + " " + r.stderrTail().strip()));
      }
      return Files.readAllBytes(r.stdout());
    } finally {
      CacheFiles.deleteTree(work);
    }
  }

  private static String strip(String name, String suffix) {
    return name.substring(0, name.length() - suffix.length());
  }
}
