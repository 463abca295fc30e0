package dev.abfleet.worker.modules;

import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.Sha256;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A kernel's module tree on this host: a {@code lib/modules/<release>} directory.
 *
 * <p>Debian's linux-image packages ship the tree without {@code modules.dep} (the package's
 * postinst runs depmod). The tree may also be read-only, so depmod never writes into it:
 * {@link #index} runs {@code depmod -b SHADOW RELEASE} on a shadow tree under the cache (the
 * tree's directories linked, its modules.order and modules.builtin* copied) and keeps the
 * result, keyed by the tree's path and the size and time of its modules.order.
 *
 * @param dir the {@code lib/modules/<release>} directory
 * @param release its name, the kernel release (uname -r) the modules were built for
 */
public record ModuleTree(Path dir, String release) {

  private static final Duration DEPMOD_TIMEOUT = Duration.ofMinutes(2);
  /** Files the tree's own build wrote and depmod reads; everything else depmod regenerates. */
  private static final List<String> DEPMOD_INPUTS =
      List.of("modules.order", "modules.builtin", "modules.builtin.modinfo");

  /**
   * What a tree holds, as the resolver needs it.
   *
   * @param dep the parsed modules.dep
   * @param builtIn names of the modules built into the kernel (modules.builtin); empty when the
   *     tree has no such file
   */
  public record Index(ModulesDep dep, Set<String> builtIn) {
    public Index {
      builtIn = Set.copyOf(builtIn);
    }
  }

  /** The tree at {@code dir}, its release being the directory's name. */
  public static ModuleTree at(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    return new ModuleTree(abs, abs.getFileName().toString());
  }

  /**
   * The tree beside a kernel in an unpacked package or a root file system:
   * {@code <root>/lib/modules/<release>} for a kernel at {@code <root>/boot/vmlinuz-<release>};
   * empty when the kernel is not laid out that way or the directory does not exist.
   */
  public static Optional<ModuleTree> beside(Path kernel) {
    Path abs = kernel.toAbsolutePath().normalize();
    String file = abs.getFileName() == null ? "" : abs.getFileName().toString();
    Path boot = abs.getParent();
    if (!file.startsWith("vmlinuz-") || file.length() == "vmlinuz-".length() || boot == null
        || boot.getFileName() == null || !boot.getFileName().toString().equals("boot") || boot.getParent() == null) {
      return Optional.empty();
    }
    String release = file.substring("vmlinuz-".length());
    Path dir = boot.getParent().resolve("lib").resolve("modules").resolve(release);
    return Files.isDirectory(dir) ? Optional.of(new ModuleTree(dir, release)) : Optional.empty();
  }

  /**
   * The path of a module file named by modules.dep, inside this tree: a modules.dep (say, in a
   * tree a client uploaded) naming {@code ../../etc/shadow} or an absolute path never makes the
   * worker read, and put in a guest, a file outside the tree.
   *
   * @throws IOException the name climbs out of the tree
   */
  public Path file(String relative) throws IOException {
    Path file = dir.resolve(relative).normalize();
    if (!file.startsWith(dir) || file.equals(dir)) {
      throw new IOException("modules.dep of " + dir + " names '" + relative + "', outside the module tree;"
          + " regenerate it with depmod (module paths are relative to the tree)");
    }
    return file;
  }

  /**
   * Reads modules.dep and modules.builtin, running depmod on a cached shadow tree when the tree
   * has no modules.dep.
   *
   * @param cacheDir abfleet cache root; depmod output is kept under {@code modules/depmod/}
   * @throws IOException the tree cannot be read, or depmod is missing or failed (the message
   *     names the fix)
   */
  public Index index(Path cacheDir, CommandRunner runner) throws IOException, InterruptedException {
    Path dep = dir.resolve("modules.dep");
    if (!Files.isRegularFile(dep)) {
      dep = depmodInShadow(cacheDir, runner);
    }
    return new Index(ModulesDep.parse(Files.readAllLines(dep, StandardCharsets.UTF_8)), builtInNames());
  }

  private Set<String> builtInNames() throws IOException {
    Path builtin = dir.resolve("modules.builtin");
    Set<String> names = new HashSet<>();
    if (Files.isRegularFile(builtin)) {
      for (String line : Files.readAllLines(builtin, StandardCharsets.UTF_8)) {
        ModulesDep.nameOf(line.strip()).ifPresent(names::add);
      }
    }
    return names;
  }

  private Path depmodInShadow(Path cacheDir, CommandRunner runner) throws IOException, InterruptedException {
    Path depmodDir = Files.createDirectories(cacheDir.resolve("modules").resolve("depmod"));
    Path shadow = depmodDir.resolve(shadowKey());
    Path result = shadow.resolve("lib").resolve("modules").resolve(release).resolve("modules.dep");
    if (Files.isRegularFile(result)) {
      return result;
    }
    Path tmp = Files.createTempDirectory(depmodDir, ".shadow-");
    try {
      Path tree = Files.createDirectories(tmp.resolve("lib").resolve("modules").resolve(release));
      try (Stream<Path> entries = Files.list(dir)) {
        for (Path e : entries.toList()) {
          String name = e.getFileName().toString();
          if (Files.isDirectory(e)) {
            Files.createSymbolicLink(tree.resolve(name), e);
          } else if (DEPMOD_INPUTS.contains(name)) {
            Files.copy(e, tree.resolve(name));
          }
        }
      }
      RunResult r = runner.run(List.of("depmod", "-b", tmp.toString(), release), tmp, "depmod", DEPMOD_TIMEOUT);
      if (r.interrupted()) {
        Thread.interrupted(); // the exception below carries the interrupt
        throw new InterruptedException("depmod for " + dir + " interrupted");
      }
      if (!r.succeeded() || !Files.isRegularFile(tree.resolve("modules.dep"))) {
        throw new IOException("depmod -b " + tmp + " " + release + " (for the module tree " + dir + ", which has no"
            + " modules.dep) failed: " + (r.launchError() != null ? r.launchError() + "; install kmod (apt-get install kmod)"
            : "exit " + r.exitCode() + " " + r.outputTail().strip()));
      }
      try {
        Files.move(tmp, shadow, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
        // another boot ran depmod for the same tree first; its result is as good
      }
      return result;
    } finally {
      CacheFiles.deleteTree(tmp);
    }
  }

  private String shadowKey() throws IOException {
    Path order = dir.resolve("modules.order");
    String stamp = Files.isRegularFile(order)
        ? Files.size(order) + "@" + Files.getLastModifiedTime(order).toMillis() : "no-modules.order";
    return Sha256.ofParts(Sha256.utf8(dir.toString()), Sha256.utf8(release), Sha256.utf8(stamp)).substring(0, 32);
  }
}
