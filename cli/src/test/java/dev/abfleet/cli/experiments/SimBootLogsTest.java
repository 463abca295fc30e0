package dev.abfleet.cli.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.IsolatedHome;
import dev.abfleet.cli.MainRun;
import dev.abfleet.cli.SimController;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code experiments logs} on the boots of sim hosts (a real in-process controller, two sim
 * workers over loopback gRPC): a sim boot has no console log, which is said, with exit 0.
 */
class SimBootLogsTest {
  private static final Pattern SUBMITTED = Pattern.compile("experiment (\\S+) submitted to ");

  @TempDir static Path dir;
  static SimController fleet;

  @RegisterExtension final IsolatedHome home = new IsolatedHome();

  @BeforeAll
  static void startFleet() throws Exception {
    fleet = SimController.start(2, "sim-", SimModel.defaults().withTimeScale(0.001), dir.resolve("w"));
  }

  @AfterAll
  static void stopFleet() {
    fleet.close();
  }

  static String address() {
    return fleet.address();
  }

  private static MainRun.Result abfleet(String... args) {
    return MainRun.run(args);
  }

  @Test
  @Timeout(90)
  void logsOfSimBootsSayThereIsNoConsoleLogAndExitZero() throws Exception {
    String kernel = SimArtifacts.kernel(dir.resolve("kernels"), "k").getUri();
    // Most of the candidate's boots panic (simulated, 0.8 per boot: its six first boots all come
    // through with probability 0.2^6), so some boot failed and carries a console tail.
    MainRun.Result ab = abfleet("ab", "--controller", address(), "--hypervisor", "sim", "--metrics", "metadata_stat",
        "--iterations", "1", "--seed", "3", "--pairs", "6", "--baseline", "base=" + kernel,
        "--candidate", "flaky=" + kernel + ":sim.fail_rate=0.8");
    Matcher m = SUBMITTED.matcher(ab.err());
    assertThat(m.find()).as(ab.err()).isTrue();
    String id = m.group(1);
    List<Boot> boots;
    try (ExperimentClient client = new ExperimentClient(address())) {
      Experiment e = client.get(id);
      boots = e.getBootsList();
    }
    int ok = indexOf(boots, "ok");
    int failed = indexOf(boots, "boot_failed");
    assertThat(failed).as(boots.toString()).isPositive();

    MainRun.Result one = abfleet("experiments", "logs", id, "--boot", String.valueOf(ok), "--controller", address());
    assertThat(one.exit()).as(one.err()).isEqualTo(ExitCodes.OK);
    assertThat(one.out()).isEqualTo("boot " + ok + " of " + id + " ran on a sim host (" + boots.get(ok - 1).getHostId()
        + "): there is no console log (SIMULATION: a sim boot runs no VM)\n");

    MainRun.Result panicked = abfleet("experiments", "logs", id, "--boot", String.valueOf(failed), "--controller", address());
    assertThat(panicked.exit()).as(panicked.err()).isEqualTo(ExitCodes.OK);
    assertThat(panicked.out()).contains("ran on a sim host").contains("its simulated console ended with:")
        .contains("Kernel panic - not syncing: SIMULATION: injected boot failure");

    MainRun.Result all = abfleet("experiments", "logs", id, "--controller", address());
    assertThat(all.exit()).as(all.err()).isEqualTo(ExitCodes.OK);
    assertThat(all.out()).contains("=== boot 1: run ")
        .contains("=== boot " + boots.size() + ": run ")
        .contains("(sim host: there is no console log, SIMULATION: a sim boot runs no VM)")
        .doesNotContain("(no console log on the controller for this boot)");
  }

  /** Position from 1 of the first boot with {@code status}; 0 when none has it. */
  private static int indexOf(List<Boot> boots, String status) {
    for (int i = 0; i < boots.size(); i++) {
      if (boots.get(i).getStatus().equals(status)) {
        return i + 1;
      }
    }
    return 0;
  }
}
