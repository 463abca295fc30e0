package dev.abfleet.worker.modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.process.CommandRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GuestModulesTest {

  private static final List<String> NINE_P = List.of("virtio_pci", "9pnet_virtio", "9p");
  private static final CommandRunner NO_COMMANDS = (argv, workDir, logName, timeout) -> {
    throw new AssertionError("ran " + argv);
  };

  @TempDir Path dir;

  @Test
  void namesTheMissingModulesAndAKernelThatHasThemInOneLine() throws Exception {
    Path kernel = packageWithTree("6.1.0-50-cloud-amd64", "cloud-6.1.0-50-cloud-amd64");

    var s = modules().select(new GuestModules.Request(kernel, "", NINE_P, "9p", List.of()));

    assertThat(s).isEqualTo(new GuestModules.Selection.Unavailable("kernel 6.1.0-50-cloud-amd64 has no modules"
        + " 9pnet_virtio, 9p (not in the modules.dep or modules.builtin of "
        + dir.resolve("pkg/lib/modules/6.1.0-50-cloud-amd64").toAbsolutePath() + "); the host-volume benchmark"
        + " needs them for its 9p share: use a kernel that has them, e.g. Debian's linux-image-6.1.0-50-amd64"));
  }

  @Test
  void blamesTheArmsListForAModuleOnlyTheArmAsksFor() throws Exception {
    Path kernel = packageWithTree("6.1.0-50-amd64", "generic-6.1.0-50-amd64");

    var s = modules().select(new GuestModules.Request(kernel, "", List.of(), "", List.of("zfs")));

    assertThat(((GuestModules.Selection.Unavailable) s).message())
        .startsWith("kernel 6.1.0-50-amd64 has no module zfs (")
        .endsWith("the arm's modules list asks for it: use a kernel that has it or drop it from the list");
  }

  @Test
  void readsTheModulesInLoadOrderDecompressingGzip() throws Exception {
    Path kernel = packageWithTree("6.1.0-50-amd64", "generic-6.1.0-50-amd64");
    Path tree = dir.resolve("pkg/lib/modules/6.1.0-50-amd64");
    Files.writeString(tree.resolve("modules.dep"), Files.readString(tree.resolve("modules.dep"))
        .replace("kernel/fs/9p/9p.ko", "kernel/fs/9p/9p.ko.gz"));
    gzip(tree.resolve("kernel/fs/9p/9p.ko"));

    var s = (GuestModules.Selection.Ready) modules().select(new GuestModules.Request(kernel, "", NINE_P, "9p", List.of()));

    assertThat(s.modules()).extracting(GuestModule::fileName).containsExactly("virtio.ko", "virtio_ring.ko",
        "virtio_pci_modern_dev.ko", "virtio_pci_legacy_dev.ko", "virtio_pci.ko", "9pnet.ko", "9pnet_virtio.ko",
        "netfs.ko", "fscache.ko", "9p.ko");
    assertThat(new String(s.modules().get(9).bytes(), StandardCharsets.UTF_8)).isEqualTo("ELF of 9p.ko");
  }

  @Test
  void refusesAModulesDepNamingAFileOutsideTheTree() throws Exception {
    Path kernel = packageWithTree("6.1.0-50-amd64", "generic-6.1.0-50-amd64");
    Path tree = dir.resolve("pkg/lib/modules/6.1.0-50-amd64");
    Files.writeString(Files.createDirectories(dir.resolve("secret")).resolve("9p.ko"), "not for a guest");
    Files.writeString(tree.resolve("modules.dep"), Files.readString(tree.resolve("modules.dep"))
        .replace("kernel/fs/9p/9p.ko", "../../../../secret/9p.ko"));

    assertThatThrownBy(() -> modules().select(new GuestModules.Request(kernel, "", NINE_P, "9p", List.of())))
        .isInstanceOf(java.io.IOException.class)
        .hasMessage("modules.dep of " + tree + " names '../../../../secret/9p.ko', outside the module tree;"
            + " regenerate it with depmod (module paths are relative to the tree)");
  }

  @Test
  void loadsTheModulesOfTheVmsDevicesFirstWithTheirDependencies() throws Exception {
    Path kernel = packageWithTree("6.1.0-50-cloud-amd64", "cloud-6.1.0-50-cloud-amd64");

    var s = (GuestModules.Selection.Ready) modules().select(new GuestModules.Request(kernel, "", List.of(), "",
        List.of(), List.of("virtio_mmio", "virtio_console")));

    assertThat(s.modules()).extracting(GuestModule::fileName)
        .containsExactly("virtio.ko", "virtio_ring.ko", "virtio_mmio.ko", "virtio_console.ko");
  }

  @Test
  void namesTheVmsDevicesAsWhatNeedsAMissingModule() throws Exception {
    Path kernel = packageWithTree("6.1.0-50-cloud-amd64", "cloud-6.1.0-50-cloud-amd64");

    var s = modules().select(new GuestModules.Request(kernel, "", List.of(), "", List.of(), List.of("hvc_dcc")));

    assertThat(((GuestModules.Selection.Unavailable) s).message())
        .startsWith("kernel 6.1.0-50-cloud-amd64 has no module hvc_dcc (")
        .endsWith("; the VM's devices need it (the results channel is a virtio console): use a kernel that has it"
            + " built in or as modules");
  }

  @Test
  void takesTheDevicesModulesAsBuiltInWhenNoTreeLiesBesideTheKernel() throws Exception {
    Path kernel = Files.writeString(dir.resolve("Image"), "k");

    var s = modules().select(new GuestModules.Request(kernel, "", List.of(), "", List.of(),
        List.of("virtio_mmio", "virtio_console")));

    assertThat(s).isEqualTo(new GuestModules.Selection.Ready(List.of(), null));
  }

  @Test
  void takesTheVolumesModulesAsBuiltInWhenNoTreeLiesBesideTheKernel() throws Exception {
    Path kernel = Files.writeString(dir.resolve("bzImage"), "k");

    var s = modules().select(new GuestModules.Request(kernel, "", NINE_P, "9p", List.of()));

    assertThat(s).isEqualTo(new GuestModules.Selection.Ready(List.of(), null));
  }

  @Test
  void asksForModulesDirWhenTheArmNamesModulesAndNoTreeLiesBesideTheKernel() throws Exception {
    Path kernel = Files.writeString(dir.resolve("bzImage"), "k");

    var s = modules().select(new GuestModules.Request(kernel, "", List.of(), "", List.of("9p")));

    assertThat(((GuestModules.Selection.Unavailable) s).message()).contains("set the arm's modules_dir");
  }

  @Test
  void rejectsATreeOfAnotherRelease() throws Exception {
    Path kernel = packageWithTree("6.1.0-50-amd64", "generic-6.1.0-50-amd64");
    Files.write(kernel, bzImageOfRelease("6.1.0-47-amd64"));

    var s = modules().select(new GuestModules.Request(kernel, "", NINE_P, "9p", List.of()));

    assertThat(((GuestModules.Selection.Unavailable) s).message())
        .contains("is for kernel release 6.1.0-50-amd64").contains("is 6.1.0-47-amd64");
  }

  private GuestModules modules() {
    return new GuestModules(dir.resolve("cache"), NO_COMMANDS);
  }

  /**
   * An unpacked package: boot/vmlinuz-R and the tree with the modules.dep excerpt {@code dep}
   * (a test resource) and a small stand-in file for every module it names.
   */
  private Path packageWithTree(String release, String dep) throws IOException {
    Path root = dir.resolve("pkg");
    Path kernel = Files.writeString(Files.createDirectories(root.resolve("boot")).resolve("vmlinuz-" + release), "k");
    Path tree = Files.createDirectories(root.resolve("lib/modules").resolve(release));
    String text;
    try (InputStream in = getClass().getResourceAsStream("/modules/" + dep + ".modules.dep")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Files.writeString(tree.resolve("modules.dep"), text);
    for (ModulesDep.Module m : ModulesDep.parse(text.lines().toList()).modules().values()) {
      Path f = tree.resolve(m.path());
      Files.createDirectories(f.getParent());
      Files.writeString(f, "ELF of " + f.getFileName());
    }
    return kernel;
  }

  private static void gzip(Path ko) throws IOException {
    byte[] plain = Files.readAllBytes(ko);
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(Path.of(ko + ".gz")))) {
      out.write(plain);
    }
    Files.delete(ko);
  }

  /** A bzImage header whose kernel_version string says {@code release}. */
  private static byte[] bzImageOfRelease(String release) {
    byte[] b = new byte[8192];
    System.arraycopy("HdrS".getBytes(StandardCharsets.US_ASCII), 0, b, 0x202, 4);
    int offset = 0x1000;
    b[0x20E] = (byte) (offset & 0xff);
    b[0x20F] = (byte) (offset >> 8);
    byte[] v = (release + " (debian-kernel@lists.debian.org) #1 SMP").getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(v, 0, b, offset + 0x200, v.length);
    return b;
  }
}
