package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The design check before the first boot, at each command that makes a design: refused with exit 2
 * and one line naming the pairs that can decide, before anything is fetched, built, started or
 * booted (the home stays empty: no controller store, no worker, no kernel cache); warnings once.
 */
class DesignCheckCliTest {
  @TempDir Path dir;
  private Path home;
  private Path kernel;

  @BeforeEach
  void isolateHome() throws IOException {
    home = Files.createDirectory(dir.resolve("home"));
    System.setProperty("abfleet.home", home.toString());
    kernel = FakeKernels.bzImage(dir);
  }

  @AfterEach
  void restoreHome() {
    System.clearProperty("abfleet.home");
  }

  private MainRun.Result ab(String... options) {
    List<String> args = new ArrayList<>(List.of("ab", "--baseline", "a=" + kernel, "--candidate", "b=" + kernel + ":quiet"));
    args.addAll(List.of(options));
    return MainRun.run(args.toArray(String[]::new));
  }

  private void refusedBeforeAnyBoot(MainRun.Result r, String line) throws IOException {
    assertThat(r.exit()).as(r.err()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err().strip()).isEqualTo(line);
    assertThat(r.out()).isEmpty();
    try (var files = Files.list(home)) {
      assertThat(files.toList()).as("nothing started or fetched").isEmpty();
    }
  }

  @Test
  void abRefusesOnePairBeforeAnyBoot() throws IOException {
    refusedBeforeAnyBoot(ab("--pairs", "1"), "abfleet: pairs 1 cannot decide (the smallest p of 1 pair is 1):"
        + " with 4 gating metrics at alpha 0.05 the smallest design that can is 6 pairs; use --pairs 6 or more");
  }

  @Test
  void abRefusesLooksThatCannotDecideNamingTheLastLookNeeded() throws IOException {
    refusedBeforeAnyBoot(ab("--looks", "2,3"), "abfleet: looks [2, 3] cannot decide (the smallest p of 3 pairs is"
        + " 0.25): with 4 gating metrics at alpha 0.05 these looks need a last look of 8 pairs or more; use --looks"
        + " ending at 8 or more (or --pairs 6)");
  }

  @Test
  void abRefusesASpecFileWithTwoPairs() throws IOException {
    Path spec = Files.writeString(dir.resolve("exp.yaml"), "pairs: 2\narms:\n"
        + "  - {name: a, role: baseline, kernel: " + kernel + "}\n"
        + "  - {name: b, role: candidate, kernel: " + kernel + ", cmdline: quiet}\n");

    refusedBeforeAnyBoot(MainRun.run("ab", "--spec", spec.toString()), "abfleet: pairs 2 cannot decide (the"
        + " smallest p of 2 pairs is 0.5): with 4 gating metrics at alpha 0.05 the smallest design that can is 6"
        + " pairs; use --pairs 6 or more");
  }

  @Test
  void abRefusesTwoCandidatesAtPairsOnlyOneCandidateCouldDecide() throws IOException {
    MainRun.Result r = ab("--candidate", "c=" + kernel + ":nosmt", "--pairs", "6");

    refusedBeforeAnyBoot(r, "abfleet: pairs 6 cannot decide (the smallest p of 6 pairs is 0.03125): with 4 gating"
        + " metrics x 2 candidates at alpha 0.05 the smallest design that can is 9 pairs; use --pairs 9 or more");
  }

  /** Both arms the same kernel and arguments: noise is measured, nothing decided, so nothing is refused. */
  @Test
  void abDoesNotCheckAnAaRun() {
    MainRun.Result r = MainRun.run("ab", "--baseline", "a=" + kernel, "--candidate", "b=" + kernel, "--pairs", "2",
        "--controller", "127.0.0.1:1");

    assertThat(r.err()).doesNotContain("cannot decide");
    assertThat(r.exit()).isNotEqualTo(ExitCodes.BAD_INPUT);
  }

  @Test
  void demoRefusesTwoPairsBeforeDownloadingTheKernel() throws IOException {
    MainRun.Result r = MainRun.run("demo", "--pairs", "2");

    refusedBeforeAnyBoot(r, "abfleet: pairs 2 cannot decide (the smallest p of 2 pairs is 0.5): with 4 gating"
        + " metrics at alpha 0.05 the smallest design that can is 6 pairs; use --pairs 6 or more");
    assertThat(r.err()).doesNotContain("fetching");
  }

  /** Printed once, before anything is submitted (here the controller is not reachable: nothing runs). */
  @Test
  void abWarnsOnceWhenTheFirstLooksCannotDecide() {
    MainRun.Result r = ab("--looks", "4,8,12", "--controller", "127.0.0.1:1");

    String warning = "abfleet: design: looks [4, 8, 12]: look 1 cannot decide; the first look that can is look 2"
        + " (8 pairs)";
    assertThat(r.err()).contains(warning);
    assertThat(r.err().indexOf(warning)).isEqualTo(r.err().lastIndexOf(warning));
    assertThat(r.err()).doesNotContain("submitted");
  }

  @Test
  void bisectRefusesLooksNoProbeCouldBeJudgedWith() throws IOException {
    MainRun.Result r = MainRun.run("bisect", "--controller", "127.0.0.1:1", "--metric", "seq_read", "--looks",
        "2,3", kernel.toString(), kernel.toString());

    refusedBeforeAnyBoot(r, "abfleet: looks [2, 3] cannot decide (the smallest p of 3 pairs is 0.25): with 1"
        + " gating metric at alpha 0.05 these looks need a last look of 6 pairs or more; use --looks ending at 6 or"
        + " more (or --pairs 6)");
  }
}
