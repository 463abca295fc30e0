package dev.abfleet.worker.modules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Resolution against excerpts of the real modules.dep of Debian's 6.1 kernels (test resources). */
class ModuleResolutionTest {

  private static final List<String> NINE_P = List.of("virtio_pci", "9pnet_virtio", "9p");

  @Test
  void loadsNinePAfterEveryModuleItNeedsOnTheGenericKernel() throws IOException {
    ModuleResolution r = ModuleResolution.resolve(dep("generic-6.1.0-50-amd64"), Set.of(), NINE_P);

    assertThat(r.missing()).isEmpty();
    assertThat(r.loadOrder()).containsExactly(
        "kernel/drivers/virtio/virtio.ko",
        "kernel/drivers/virtio/virtio_ring.ko",
        "kernel/drivers/virtio/virtio_pci_modern_dev.ko",
        "kernel/drivers/virtio/virtio_pci_legacy_dev.ko",
        "kernel/drivers/virtio/virtio_pci.ko",
        "kernel/net/9p/9pnet.ko",
        "kernel/net/9p/9pnet_virtio.ko",
        "kernel/fs/netfs/netfs.ko",
        "kernel/fs/fscache/fscache.ko",
        "kernel/fs/9p/9p.ko");
  }

  @Test
  void putsEachModuleAfterItsDependenciesForVirtiofs() throws IOException {
    ModulesDep dep = dep("generic-6.1.0-50-amd64");

    ModuleResolution r = ModuleResolution.resolve(dep, Set.of(), List.of("virtio_pci", "virtiofs"));

    assertThat(r.loadOrder()).endsWith("kernel/fs/fuse/fuse.ko", "kernel/fs/fuse/virtiofs.ko");
    for (int i = 0; i < r.loadOrder().size(); i++) {
      String path = r.loadOrder().get(i);
      List<String> before = r.loadOrder().subList(0, i);
      assertThat(before).as(path).containsAll(dep.get(ModulesDep.nameOf(path).orElseThrow()).orElseThrow().deps());
    }
  }

  @Test
  void namesTheNinePModulesTheCloudKernelLacks() throws IOException {
    ModuleResolution r = ModuleResolution.resolve(dep("cloud-6.1.0-50-cloud-amd64"), Set.of(), NINE_P);

    assertThat(r.complete()).isFalse();
    assertThat(r.missing()).containsExactly("9pnet_virtio", "9p");
  }

  @Test
  void loadsNothingForAModuleBuiltIntoTheKernel() throws IOException {
    ModuleResolution r = ModuleResolution.resolve(dep("cloud-6.1.0-50-cloud-amd64"), Set.of("9p", "9pnet_virtio"),
        List.of("9p"));

    assertThat(r.loadOrder()).isEmpty();
    assertThat(r.builtIn()).containsExactly("9p");
    assertThat(r.complete()).isTrue();
  }

  @Test
  void loadsAModuleWantedTwiceOnce() throws IOException {
    ModuleResolution r = ModuleResolution.resolve(dep("generic-6.1.0-50-amd64"), Set.of(),
        List.of("virtio-rng", "virtio_rng", "virtio"));

    assertThat(r.loadOrder()).containsExactly("kernel/drivers/virtio/virtio.ko",
        "kernel/drivers/virtio/virtio_ring.ko", "kernel/drivers/char/hw_random/virtio-rng.ko");
  }

  static ModulesDep dep(String name) throws IOException {
    try (InputStream in = ModuleResolutionTest.class.getResourceAsStream("/modules/" + name + ".modules.dep")) {
      return ModulesDep.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
    }
  }
}
