package dev.abfleet.worker.modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModuleTreeTest {

  @TempDir Path dir;

  private final List<List<String>> ran = new ArrayList<>();

  @Test
  void findsTheTreeBesideAKernelInAnUnpackedPackage() throws IOException {
    Path kernel = unpackedPackage("6.1.0-50-amd64");

    assertThat(ModuleTree.beside(kernel)).hasValue(
        new ModuleTree(dir.resolve("pkg/lib/modules/6.1.0-50-amd64").toAbsolutePath(), "6.1.0-50-amd64"));
  }

  @Test
  void findsNoTreeBesideAKernelOutsideABootDirectory() throws IOException {
    Path kernel = Files.writeString(dir.resolve("vmlinuz-6.1.0-50-amd64"), "k");
    Files.createDirectories(dir.resolve("lib/modules/6.1.0-50-amd64"));

    assertThat(ModuleTree.beside(kernel)).isEmpty();
  }

  @Test
  void runsDepmodOnAShadowTreeAndLeavesThePackageUntouched() throws Exception {
    ModuleTree tree = ModuleTree.beside(unpackedPackage("6.1.0-50-amd64")).orElseThrow();

    ModuleTree.Index index = tree.index(dir.resolve("cache"), depmodWriting("kernel/fs/9p/9p.ko:"));

    assertThat(index.dep().get("9p")).isPresent();
    assertThat(index.builtIn()).containsExactly("virtio_pci");
    assertThat(ran).hasSize(1);
    assertThat(ran.get(0)).startsWith("depmod", "-b").endsWith("6.1.0-50-amd64");
    assertThat(tree.dir().resolve("modules.dep")).doesNotExist();
  }

  @Test
  void runsDepmodOncePerTree() throws Exception {
    ModuleTree tree = ModuleTree.beside(unpackedPackage("6.1.0-50-amd64")).orElseThrow();

    tree.index(dir.resolve("cache"), depmodWriting("kernel/fs/9p/9p.ko:"));
    tree.index(dir.resolve("cache"), depmodWriting("kernel/fs/9p/9p.ko:"));

    assertThat(ran).hasSize(1);
  }

  @Test
  void readsTheTreesOwnModulesDepWithoutDepmod() throws Exception {
    ModuleTree tree = ModuleTree.beside(unpackedPackage("6.1.0-50-amd64")).orElseThrow();
    Files.writeString(tree.dir().resolve("modules.dep"), "kernel/fs/fuse/fuse.ko:\n");

    ModuleTree.Index index = tree.index(dir.resolve("cache"), depmodWriting("kernel/fs/9p/9p.ko:"));

    assertThat(index.dep().get("fuse")).isPresent();
    assertThat(ran).isEmpty();
  }

  @Test
  void saysToInstallKmodWhenDepmodIsMissing() throws IOException {
    ModuleTree tree = ModuleTree.beside(unpackedPackage("6.1.0-50-amd64")).orElseThrow();
    CommandRunner missing = (argv, workDir, logName, timeout) ->
        new RunResult(-1, false, false, Duration.ZERO, null, null, "", "", "depmod: not found");

    assertThatThrownBy(() -> tree.index(dir.resolve("cache"), missing))
        .isInstanceOf(IOException.class).hasMessageContaining("apt-get install kmod");
  }

  /** boot/vmlinuz-R and lib/modules/R/{kernel/,modules.order,modules.builtin}, as dpkg -x leaves them. */
  private Path unpackedPackage(String release) throws IOException {
    Path root = dir.resolve("pkg");
    Path kernel = Files.writeString(Files.createDirectories(root.resolve("boot")).resolve("vmlinuz-" + release), "k");
    Path tree = Files.createDirectories(root.resolve("lib/modules").resolve(release));
    Files.createDirectories(tree.resolve("kernel/fs/9p"));
    Files.writeString(tree.resolve("modules.order"), "kernel/fs/9p/9p.ko\n");
    Files.writeString(tree.resolve("modules.builtin"), "kernel/drivers/virtio/virtio_pci.ko\n");
    return kernel;
  }

  /** A depmod that writes {@code line} as modules.dep of the tree it is given with -b. */
  private CommandRunner depmodWriting(String line) {
    return (argv, workDir, logName, timeout) -> {
      ran.add(argv);
      Path out = Path.of(argv.get(2)).resolve("lib/modules").resolve(argv.get(3));
      try {
        assertThat(out.resolve("kernel")).as("the tree's directories are linked into the shadow").isSymbolicLink();
        Files.writeString(out.resolve("modules.dep"), line + "\n");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new RunResult(0, false, false, Duration.ZERO, null, null, "", "", null);
    };
  }
}
