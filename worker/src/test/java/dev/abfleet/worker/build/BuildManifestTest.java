package dev.abfleet.worker.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BuildManifestTest {

  static BuildManifest withPatches(String... names) {
    return new BuildManifest("3f2a9c1d0b7e55", "linux-source-6.1.tar.xz", "ab12", List.of(names),
        List.of(names).stream().map(n -> "d" + n).toList(), "abfleet-minimal", "x86_64", "gcc 12; make 4.3",
        "6.1.176", 0);
  }

  @Test
  void describesTheSourceAlone() {
    assertThat(withPatches().describe())
        .isEqualTo("build 3f2a9c1d: linux-source-6.1.tar.xz, abfleet-minimal, x86_64, 6.1.176");
  }

  @Test
  void describesOnePatchByName() {
    assertThat(withPatches("fix-stat.patch").describe())
        .isEqualTo("build 3f2a9c1d: linux-source-6.1.tar.xz + 1 patch (fix-stat.patch), abfleet-minimal, x86_64,"
            + " 6.1.176");
  }

  @Test
  void countsManyPatchesWithoutNamingThem() {
    assertThat(withPatches("a", "b", "c", "d").describe())
        .startsWith("build 3f2a9c1d: linux-source-6.1.tar.xz + 4 patches, abfleet-minimal");
  }
}
