package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** fleet.yaml schedules of {@code kind: aa}: one kernel as both arms. */
class FleetConfigAaScheduleTest {
  private static final String BENCH = "benchmarks:\n  fuse:\n    metrics: [metadata_stat, seq_read]\n";

  private static FleetConfig parse(String schedules) {
    return FleetConfigLoader.parse("f.yaml", BENCH + "schedules:\n" + schedules);
  }

  @Test
  void aaScheduleTakesOneKernel() {
    FleetConfig.Schedule s = parse("  - name: noise\n    kind: aa\n    cron: \"0 4 * * 0\"\n"
        + "    kernel: {newest_in: /srv/k}\n    pairs: 3\n").schedules().get(0);
    assertThat(s.aa()).isTrue();
    assertThat(s.kind()).isEqualTo("aa");
    assertThat(s.candidate()).isEqualTo(new FleetConfig.Candidate("newest_in", "/srv/k"));
    assertThat(s.baseline()).isEqualTo(FleetConfig.Baseline.SAME_KERNEL);
    assertThat(s.pairs()).isEqualTo(3);
  }

  @Test
  void kindDefaultsToAb() {
    FleetConfig.Schedule s = parse("  - name: n\n    cron: \"@daily\"\n    candidate: {path: /k}\n"
        + "    baseline: {pinned: /b}\n").schedules().get(0);
    assertThat(s.kind()).isEqualTo("ab");
    assertThat(s.aa()).isFalse();
  }

  @Test
  void aaRejectsCandidateAndBaselineNamingTheFix() {
    assertThatThrownBy(() -> parse("  - name: n\n    kind: aa\n    cron: \"@daily\"\n    kernel: {path: /k}\n"
        + "    candidate: {path: /k}\n"))
        .isInstanceOf(Problem.class).hasMessageContaining("f.yaml:")
        .hasMessageContaining("kind: aa").hasMessageContaining("replace candidate: with kernel:");
  }

  @Test
  void aaNeedsAKernel() {
    assertThatThrownBy(() -> parse("  - name: n\n    kind: aa\n    cron: \"@daily\"\n"))
        .isInstanceOf(Problem.class).hasMessageContaining("has no kernel")
        .hasMessageContaining("kernel: {path: /boot/vmlinuz}");
  }

  @Test
  void aaNeedsTwoPairs() {
    assertThatThrownBy(() -> parse("  - name: n\n    kind: aa\n    cron: \"@daily\"\n    kernel: {path: /k}\n"
        + "    pairs: 1\n"))
        .isInstanceOf(Problem.class).hasMessageContaining("pairs is 1").hasMessageContaining("pairs: 2 or more");
  }

  @Test
  void unknownKindListsTheKinds() {
    assertThatThrownBy(() -> parse("  - name: n\n    kind: ba\n    cron: \"@daily\"\n    kernel: {path: /k}\n"))
        .isInstanceOf(Problem.class).hasMessageContaining("'ba'").hasMessageContaining("expected one of ab, aa");
  }

  @Test
  void kernelWithoutKindAaSaysToAddIt() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: \"@daily\"\n    kernel: {path: /k}\n"))
        .isInstanceOf(Problem.class).hasMessageContaining("add kind: aa");
  }

  @Test
  void commentedAaExampleInFleetYamlIsValid() throws IOException {
    var lines = Files.readAllLines(Path.of("..", "fleet.yaml"));
    String head = lines.stream().takeWhile(l -> !l.equals("schedules: []")).collect(Collectors.joining("\n"));
    String example = lines.stream().dropWhile(l -> !l.startsWith("# - name: qemu-noise"))
        .map(l -> l.substring(2)).collect(Collectors.joining("\n"));
    FleetConfig.Schedule s = FleetConfigLoader.parse("f.yaml", head + "\nschedules:\n" + example + "\n")
        .schedule("qemu-noise");
    assertThat(s.aa()).isTrue();
    assertThat(s.candidate()).isEqualTo(new FleetConfig.Candidate("path", "/boot/vmlinuz-6.1.0-50-cloud-amd64"));
  }
}
