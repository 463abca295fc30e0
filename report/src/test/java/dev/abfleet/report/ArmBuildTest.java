package dev.abfleet.report;

import dev.abfleet.model.ArmBuild;

import dev.abfleet.stats.verdict.Assessment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.Policy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a report names the build of an arm whose kernel abfleet built from source. */
class ArmBuildTest {
  static ArmBuild build(String key, String... patches) {
    return new ArmBuild(key, "linux-source-6.1.tar.xz", "ef".repeat(32), List.of(patches),
        java.util.Arrays.stream(patches).map(p -> "12".repeat(32)).toList(), "abfleet-minimal",
        "x86_64", "gcc (Debian 12.2.0-14) 12.2.0", "6.1.176");
  }

  static Report report(Map<String, ArmBuild> builds) {
    Design d = new Design("e-build", "stock", List.of("slow"), "pinned", List.of(), Set.of(),
        new Policy(0.02, 0.05), 7, null);
    return new Report(d, Assessment.EMPTY,
        new Run("completed", 7, 0, 8, 0, 0, "", false, List.of(), builds));
  }

  @Test
  void describesSourcePatchesConfigAndArchUnderTheShortKey() {
    assertThat(build("3f2a9c1d" + "0".repeat(56)).describe())
        .isEqualTo("build 3f2a9c1d (linux-source-6.1.tar.xz + 0 patches, abfleet-minimal, x86_64)");
    assertThat(build("9b1e07aa" + "1".repeat(56), "slow-stat.patch").describe())
        .isEqualTo("build 9b1e07aa (linux-source-6.1.tar.xz + 1 patch: slow-stat.patch, abfleet-minimal,"
            + " x86_64)");
    assertThat(build("9b1e07aa" + "1".repeat(56), "a.patch", "b.patch").describe())
        .isEqualTo("build 9b1e07aa (linux-source-6.1.tar.xz + 2 patches: a.patch, b.patch, abfleet-minimal,"
            + " x86_64)");
  }

  @Test
  void leavesOutAnEmptyConfigAndArch() {
    ArmBuild bare = new ArmBuild("3f2a9c1d", "linux.git@v6.1", "", List.of(), List.of(), "", "", "", "");

    assertThat(bare.describe()).isEqualTo("build 3f2a9c1d (linux.git@v6.1 + 0 patches)");
  }

  @Test
  void listsBuiltArmsBaselineFirstThenAsComparedWhateverTheSpecOrder() {
    Map<String, ArmBuild> builds = new LinkedHashMap<>();
    builds.put("pinned", build("cc".repeat(32)));
    builds.put("slow", build("9b".repeat(32), "slow-stat.patch"));
    builds.put("stock", build("3f".repeat(32)));

    assertThat(report(builds).builds().keySet()).containsExactly("stock", "slow", "pinned");
  }

  @Test
  void aReportWithoutBuiltArmsPrintsNoBuildLineInAnyFormat() {
    Report none = report(Map.of());
    Report analyzed = new Report(none.design(), none.assessment(), null);

    assertThat(none.buildLines()).isEmpty();
    assertThat(analyzed.buildLines()).isEmpty();
    assertThat(JsonReport.render(none)).doesNotContain("builds");
    assertThat(TextReport.render(none)).doesNotContain("build ");
    assertThat(MarkdownReport.render(none)).doesNotContain("build ");
    assertThat(HtmlReport.render(none)).doesNotContain("class=\"builds\"");
  }
}
