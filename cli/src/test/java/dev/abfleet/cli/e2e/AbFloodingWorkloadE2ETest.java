package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user workload that writes to its output without end, on Debian's 6.1 cloud kernel in real
 * QEMU: each boot is stopped at the guest's cap, classified HARNESS with the first bytes the
 * workload printed quoted, and the worker and controller go on to the next boot and finish.
 */
@Tag("e2e")
class AbFloodingWorkloadE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LINE = "flood 0123456789 \"quoted\"";

  @TempDir Path dir;

  @Test
  void aFloodingWorkloadIsStoppedAndReportedAsHarnessQuotingItsFirstBytes() throws Exception {
    Path kernel = Kernels.cloud();
    Path workload = Files.createDirectories(dir.resolve("flood-workload"));
    // A shell loop: the guest image has no `yes`; `echo` is a builtin and needs no fork.
    Files.writeString(workload.resolve("run.sh"),
        "#!/bin/sh\nwhile :; do echo '" + LINE + "'; done\n");
    Path fleet = Files.writeString(dir.resolve("fleet.yaml"), String.join("\n",
        "controller:",
        "  store: {path: " + dir.resolve("store") + "}",
        "benchmarks:",
        "  flood:",
        "    workload: {files: flood-workload, run: sh /workload/run.sh, output: gobench, timeout_s: 120}",
        ""));
    Path spec = Files.writeString(dir.resolve("flood.yaml"), String.join("\n",
        "benchmark: flood",
        "pairs: 1",
        "arms:",
        "  - {name: a, role: baseline, kernel: " + kernel + "}",
        "  - {name: b, role: candidate, kernel: " + kernel + "}",
        ""));

    Cli.Result r = Cli.run(dir, 10, "ab", "--config", fleet.toString(), "--spec", spec.toString(),
        "--format", "json");

    JsonNode report = JSON.readTree(r.out());
    // Both boots ran: the worker survived the first flood and the controller took both reports.
    assertThat(AaReports.pairedBoots(report)).as(r.err()).hasSize(2);
    String quoted = "first 120 bytes on stdout: \"flood 0123456789 \\\"quoted\\\"\\nflood 0123456789";
    for (JsonNode b : AaReports.pairedBoots(report)) {
      assertThat(b.get("status").asText()).as(b.toString()).isEqualTo("harness_failed");
      assertThat(b.get("message").asText()).as(b.toString())
          .contains("workload printed more than the guest forwards (512 KiB on stdout) and was killed")
          .contains(quoted);
    }
    assertThat(r.err()).contains("HARNESS_FAILED").doesNotContain("\tat ");
  }
}
