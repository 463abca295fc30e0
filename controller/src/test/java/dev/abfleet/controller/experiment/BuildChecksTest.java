package dev.abfleet.controller.experiment;

import dev.abfleet.model.ArmBuild;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuildChecksTest {
  static ArmBuild build(String key, List<String> patches, List<String> digests, String toolchain) {
    return new ArmBuild(key, "linux-source-6.1.tar.xz", "ef".repeat(32), patches, digests,
        "abfleet-minimal", "x86_64", toolchain, "6.1.176");
  }

  static List<String> problems(ArmBuild b) {
    List<String> problems = new ArrayList<>();
    BuildChecks.check("arms[1].build", b, problems);
    return problems;
  }

  @Test
  void acceptsABuildWithADigestPerPatchAndAnArmWithoutABuild() {
    assertThat(problems(build("9b".repeat(32), List.of("slow-stat.patch"), List.of("12".repeat(32)), "gcc 12.2.0")))
        .isEmpty();
    assertThat(problems(null)).isEmpty();
  }

  @Test
  void rejectsAKeyThatIsNotASha256() {
    assertThat(problems(build("9b1e07aa", List.of(), List.of(), "gcc 12.2.0"))).containsExactly(
        "arms[1].build.key: '9b1e07aa' is not a lower-case hex SHA-256; send the build's key, 64 hex digits");
  }

  @Test
  void rejectsPatchesWithoutTheirDigests() {
    assertThat(problems(build("9b".repeat(32), List.of("a.patch", "b.patch"), List.of("12".repeat(32)), "gcc")))
        .containsExactly("arms[1].build.patch_digests: 1 digests for 2 patches; send one SHA-256 per patch,"
            + " in the same order");
  }

  @Test
  void rejectsAToolchainThatWouldBreakTheReportLine() {
    assertThat(problems(build("9b".repeat(32), List.of(), List.of(), "gcc\n\u001b[2Jok")))
        .singleElement().asString()
        .startsWith("arms[1].build.toolchain: 'gcc??[2Jok' contains control characters");
  }
}
