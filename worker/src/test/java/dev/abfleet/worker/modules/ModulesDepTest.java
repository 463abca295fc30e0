package dev.abfleet.worker.modules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ModulesDepTest {

  @Test
  void readsAModuleWithItsDependenciesInFileOrder() {
    ModulesDep d = ModulesDep.parse(List.of(
        "kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/fscache/fscache.ko kernel/fs/netfs/netfs.ko"));

    assertThat(d.get("9p")).hasValueSatisfying(m -> {
      assertThat(m.path()).isEqualTo("kernel/fs/9p/9p.ko");
      assertThat(m.deps()).containsExactly("kernel/net/9p/9pnet.ko", "kernel/fs/fscache/fscache.ko",
          "kernel/fs/netfs/netfs.ko");
    });
  }

  @Test
  void reportsABadLineAndKeepsReading() {
    ModulesDep d = ModulesDep.parse(List.of("garbage without colon", "kernel/net/9p/9pnet.ko:", "README: x"));

    assertThat(d.problems()).extracting(ModulesDep.Problem::line).containsExactly(1, 3);
    assertThat(d.get("9pnet")).isPresent();
  }

  @Test
  void namesCompressedModulesWithUnderscoresAsTheKernelDoes() {
    assertThat(ModulesDep.nameOf("kernel/drivers/char/hw_random/virtio-rng.ko.xz")).hasValue("virtio_rng");
    assertThat(ModulesDep.nameOf("kernel/fs/9p/9p.ko.zst")).hasValue("9p");
    assertThat(ModulesDep.nameOf("modules.order")).isEmpty();
  }
}
