package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * arm64 guests: Debian's arm64 cloud kernel boots the aarch64 guest image (cross-built here) in
 * {@code qemu-system-aarch64 -M virt} under TCG, and kernels of the other architecture than the
 * selected hosts are refused at submit.
 */
@Tag("e2e")
class AbArm64E2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theArm64CloudKernelOnBothArmsBootsOnQemuAarch64AndEveryBootSaysSo(@TempDir Path dir) throws Exception {
    Path k = Kernels.arm64Cloud();
    Cli.Result r = Cli.run(dir, 20, "ab", "--baseline", "a=" + k, "--candidate", "b=" + k, "--pairs", "3",
        "--metrics", "metadata_stat,create_delete", "--iterations", "2", "--format", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.get("pairs_done").asInt()).isEqualTo(3);
    Set<String> images = new HashSet<>();
    for (JsonNode b : report.get("boots")) {
      assertThat(b.get("status").asText()).as(b.toString()).isEqualTo("ok");
      assertThat(b.get("arch").asText()).isEqualTo("aarch64");
      assertThat(b.get("host_class").asText()).isEqualTo("qemu/tcg guest=aarch64");
      assertThat(b.get("guest_image_sha256").asText()).matches("[0-9a-f]{64}");
      images.add(b.get("guest_image_sha256").asText());
    }
    assertThat(images).as("one guest image for both arms").hasSize(1);
    assertThat(report.get("comparisons")).isNotEmpty();
  }

  @Test
  void kernelsOfAnotherArchitectureThanTheSelectedHostsAreRefusedAtSubmit(@TempDir Path dir) throws Exception {
    Path x86 = Kernels.cloud();
    Cli.Result r = Cli.run(dir, 5, "ab", "--arch", "aarch64", "--baseline", "a=" + x86, "--candidate", "b=" + x86,
        "--pairs", "2");
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains("selector.arch: aarch64 hosts were selected but the arms' kernels are x86_64");

    Path arm = Kernels.arm64Cloud();
    r = Cli.run(dir, 5, "ab", "--arch", "x86_64", "--baseline", "a=" + arm, "--candidate", "b=" + arm,
        "--pairs", "2");
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains("selector.arch: x86_64 hosts were selected but the arms' kernels are aarch64");
  }
}
