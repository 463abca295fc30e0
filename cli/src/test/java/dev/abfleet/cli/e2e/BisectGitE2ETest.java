package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code abfleet bisect --git} over a repository of the linux-source-6.1 tarball plus five
 * commits, the third of which slows stat(): real builds (the base once, then incremental) and
 * real boots in QEMU (TCG here).
 */
@Tag("e2e")
// Alone, and 10 pairs per probe: the probe of a good commit must rule out half the endpoints'
// regression, and in one run metadata_stat of one kernel was bimodal (102k-219k): at 6 pairs the
// sign-flip interval is the extreme pair's, and one such pair left that probe ambiguous.
@Isolated
class BisectGitE2ETest {

  @Test
  void namesTheCommitThatSlowedStatBuildingOnlyTheProbesItNeeds(@TempDir Path dir) throws Exception {
    Path repo = GitKernelRepo.create();
    List<String> commits = GitKernelRepo.commits(repo);
    assertThat(commits).hasSize(6);

    Cli.Result r = Cli.run(dir, 45, SourceKernels.env(), "bisect", "--git", repo.toString(),
        "--good", commits.get(0), "--bad", commits.get(5), "--metric", "metadata_stat", "--pairs", "10");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("first bad commit: " + commits.get(3) + " " + GitKernelRepo.CULPRIT_SUBJECT);
    // Five commits after the good one: the endpoints, then at most ceil(log2(5)) = 3 probes (2 here:
    // the middle commit is good, the next one bad); only those four kernels are built (fewer when an
    // earlier run left some in the build cache).
    assertThat(r.out()).contains("2 probes after the endpoints (at most 3)");
    java.util.regex.Matcher built = java.util.regex.Pattern.compile("(\\d+) kernels? built").matcher(r.out());
    assertThat(built.find()).as(r.out()).isTrue();
    assertThat(Integer.parseInt(built.group(1))).isBetween(0, 4);
  }
}
