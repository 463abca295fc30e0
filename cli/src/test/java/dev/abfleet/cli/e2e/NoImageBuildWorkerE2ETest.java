package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker that does not build guest images (as a macOS worker is, here with
 * {@code --no-image-build}) boots the image that {@code ab --controller} built and attached, and
 * refuses, as a configuration error naming the fix, a run that carries none.
 */
@Tag("e2e")
class NoImageBuildWorkerE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void bootsTheStagedImageThatTheClientAttached(@TempDir Path dir) throws Exception {
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      fleet.startWorker("w1", "--no-image-build");
      FleetProcessesE2ETest.awaitHosts(fleet, 1);
      Path k = Kernels.cloud();

      Cli.Result r = Cli.run(dir, 10, "ab", "--controller", fleet.target(), "--baseline", "a=" + k,
          "--candidate", "b=" + k, "--pairs", "1", "--metrics", "metadata_stat", "--iterations", "2",
          "--format", "json");

      assertThat(r.exit()).as(r.err() + "\n" + fleet.log("w1")).isZero();
      JsonNode report = JSON.readTree(r.out());
      assertThat(AaReports.pairedBoots(report)).hasSize(2).allSatisfy(b -> {
        assertThat(b.get("status").asText()).as(b.toString()).isEqualTo("ok");
        assertThat(b.get("guest_image_sha256").asText()).matches("[0-9a-f]{64}");
      });
      try (Stream<Path> files = Files.walk(dir.resolve("w1-home"))) {
        assertThat(files.map(Path::toString)).as("the worker compiled no harness of its own")
            .noneMatch(p -> p.contains("/guest/fleetbench/"));
      }
    }
  }

  @Test
  void aRunWithoutAStagedImageIsAConfigurationErrorNamingTheFix(@TempDir Path dir) throws Exception {
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      fleet.startWorker("w1", "--no-image-build");
      FleetProcessesE2ETest.awaitHosts(fleet, 1);
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        Experiment done = FleetProcessesE2ETest.awaitDone(client,
            client.submit("", FleetProcessesE2ETest.spec(1, java.util.List.of())), fleet);

        assertThat(done.getState()).isEqualTo("failed");
        assertThat(done.getMessage()).contains("does not build guest images (--no-image-build)")
            .contains("abfleet ab");
        assertThat(done.getBootsList()).extracting(b -> b.getStatus()).doesNotContain("ok", "boot_failed");
      }
    }
  }
}
