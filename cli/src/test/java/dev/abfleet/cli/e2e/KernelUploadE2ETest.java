package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance of kernel upload: {@code ab --controller} with a kernel that exists only on the
 * submitting machine completes on a worker with a home of its own and no shared path. The client
 * uploads the kernel (one chunk corrupted on the way by the test-only switch, detected by the
 * controller and re-sent), the stored spec names it {@code abfleet:sha256:<hex>}, the worker
 * fetches it from the controller, and the boots' console logs come back through
 * {@code abfleet experiments logs}. Likewise a module tree that lies only beside the client's
 * kernel reaches the worker packed ({@code modules_tree}), so the host-volume benchmark's 9p
 * modules load there.
 */
@Tag("e2e")
class KernelUploadE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SUBMITTED = Pattern.compile("experiment (\\S+) submitted to");

  @Test
  void aModuleTreeOnlyTheClientHasReachesTheWorkerPacked(@TempDir Path dir) throws Exception {
    Path generic = Kernels.generic();
    String release = generic.getFileName().toString().substring("vmlinuz-".length());
    Path tree = generic.getParent().getParent().resolve("lib/modules").resolve(release);
    Path clientOnly = Files.createDirectories(dir.resolve("client-only"));
    Path kernel = Files.copy(generic, Files.createDirectories(clientOnly.resolve("boot")).resolve(generic.getFileName()));
    Path ownTree = Files.createDirectories(clientOnly.resolve("lib/modules").resolve(release));
    Files.createSymbolicLink(ownTree.resolve("kernel"), tree.resolve("kernel"));
    try (var files = Files.list(tree)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, ownTree.resolve(f.getFileName()));
      }
    }
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      fleet.startWorker("w1");
      FleetProcessesE2ETest.awaitHosts(fleet, 1);

      // One metric on the share is enough to need the 9p modules (the benchmark's 2,000-file trees are not).
      Process ab = Cli.start(dir, "ab", List.of(), "ab", "--controller", fleet.target(), "--benchmark", "host-volume",
          "--metrics", "metadata_stat", "--iterations", "2", "--baseline", "a=" + kernel, "--candidate", "b=" + kernel,
          "--pairs", "1", "--format", "json");
      assertThat(ab.waitFor(10, TimeUnit.MINUTES)).as("ab finished").isTrue();
      String err = Cli.read(dir.resolve("ab.err"));

      assertThat(ab.exitValue()).as(err + "\n" + fleet.log("w1")).isZero();
      JsonNode report = JSON.readTree(Cli.read(dir.resolve("ab.out")));
      assertThat(AaReports.pairedBoots(report)).hasSize(2)
          .allSatisfy(b -> assertThat(b.get("status").asText()).as(b.toString()).isEqualTo("ok"));
      Matcher m = SUBMITTED.matcher(err);
      assertThat(m.find()).as(err).isTrue();
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        Experiment e = client.get(m.group(1));
        assertThat(e.getSpec().getArmsList()).allSatisfy(a -> {
          assertThat(a.getBoot().getModulesDir()).isEmpty();
          assertThat(a.getBoot().getModulesTree().getUri()).isEqualTo("abfleet:sha256:" + a.getBoot().getModulesTree().getSha256());
        });
        String treeSha = e.getSpec().getArms(0).getBoot().getModulesTree().getSha256();
        assertThat(dir.resolve("w1-home/modules").resolve(treeSha).resolve(release).resolve("modules.dep"))
            .isRegularFile();
      }
    }
  }

  @Test
  void aKernelOnlyTheClientHasRunsOnAWorkerThatFetchesItFromTheController(@TempDir Path dir) throws Exception {
    Path clientOnly = Files.createDirectories(dir.resolve("client-only"));
    Path kernel = Files.copy(Kernels.cloud(), clientOnly.resolve("bzImage-under-test"));
    String sha = ArtifactCache.sha256(kernel);
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      fleet.startWorker("w1");
      FleetProcessesE2ETest.awaitHosts(fleet, 1);

      Process ab = Cli.start(dir, "ab", List.of("-D" + ControllerArtifacts.CORRUPT_CHUNK_PROPERTY + "=2"),
          "ab", "--controller", fleet.target(), "--baseline", "a=" + kernel, "--candidate", "b=" + kernel,
          "--pairs", "1", "--metrics", "metadata_stat", "--iterations", "2", "--format", "json");
      assertThat(ab.waitFor(10, TimeUnit.MINUTES)).as("ab finished").isTrue();
      String err = Cli.read(dir.resolve("ab.err"));

      assertThat(ab.exitValue()).as(err + "\n" + fleet.log("w1")).isZero();
      assertThat(err).contains("uploaded " + kernel).contains("1 corrupted chunk(s) detected and re-sent");
      JsonNode report = JSON.readTree(Cli.read(dir.resolve("ab.out")));
      assertThat(AaReports.pairedBoots(report)).hasSize(2)
          .allSatisfy(b -> assertThat(b.get("status").asText()).as(b.toString()).isEqualTo("ok"));
      assertThat(fleet.log("w1")).contains("artifact " + sha + " fetched from the controller");
      assertThat(dir.resolve("w1-home/artifacts/sha256").resolve(sha)).exists();

      Matcher m = SUBMITTED.matcher(err);
      assertThat(m.find()).as(err).isTrue();
      String id = m.group(1);
      int boots;
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        Experiment e = client.get(id);
        // Two, or more when the quiet-host policy re-ran a pair a busy neighbour disturbed.
        boots = e.getBootsCount();
        assertThat(boots).isGreaterThanOrEqualTo(2);
        assertThat(e.getSpec().getArmsList()).extracting(a -> a.getBoot().getKernel())
            .allSatisfy(k -> assertThat(k.getUri()).isEqualTo("abfleet:sha256:" + sha));
        assertThat(e.getBootsList()).allSatisfy(b -> assertThat(b.getConsoleLogSha256()).matches("[0-9a-f]{64}"));
      }

      Cli.Result logs = Cli.run(dir, 2, "experiments", "logs", id, "--boot", "1", "--controller", fleet.target());
      assertThat(logs.exit()).as(logs.err()).isZero();
      assertThat(logs.out()).isNotBlank();
      String past = String.valueOf(boots + 1);
      Cli.Result noBoot = Cli.run(dir, 2, "experiments", "logs", id, "--boot", past, "--controller", fleet.target());
      assertThat(noBoot.exit()).as(noBoot.out()).isEqualTo(2);
      assertThat(noBoot.err())
          .contains("--boot " + past + ": experiment " + id + " has " + boots + " boot(s); pass 1 to " + boots);
      Cli.Result unknown = Cli.run(dir, 2, "experiments", "logs", "no-such-id", "--controller", fleet.target());
      assertThat(unknown.exit()).isEqualTo(2);
      assertThat(unknown.err()).contains("unknown experiment 'no-such-id'");
    }
  }
}
