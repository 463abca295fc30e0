package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.Eventually;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code abfleet ab} in a real terminal: a tmux pane of a given width, its scrollback read back
 * as the user sees it, and Ctrl-C typed into it. The experiment runs on sim workers of an
 * in-process controller, so the test is about the terminal, not the measurement.
 */
class AbTerminalTest {
  private static final Pattern EXIT = Pattern.compile("(?m)^EXIT=(\\d+)$");

  @TempDir static Path dir;
  static SimController fleet;

  @BeforeAll
  static void startFleet() throws Exception {
    fleet = SimController.start(2, "t-", SimModel.defaults().withTimeScale(0.1), dir.resolve("sim"));
  }

  @AfterAll
  static void stopFleet() {
    fleet.close();
  }

  private static String address() {
    return fleet.address();
  }

  @ParameterizedTest
  @ValueSource(ints = {80, 200})
  @Timeout(180)
  void theStatusLineLeavesNoStaleCopiesInTheScrollback(int columns) throws Exception {
    try (Pane pane = Pane.start("w" + columns, columns, ab("--pairs", "10",
        "--metrics", "metadata_stat,negative_lookup,create_delete,seq_read"))) {
      String screen = pane.awaitExit(150);

      assertThat(pane.exit(screen)).as(screen).isEqualTo(ExitCodes.OK);
      assertThat(screen).as(screen).contains("pair 9.1");
      // The final status is the one line left; a redrawn status that wrapped would leave its
      // first row behind at every boot line.
      assertThat(screen.lines().filter(l -> l.contains("status:"))).as(screen).hasSize(1);
      assertThat(screen.lines().filter(l -> l.contains("status:")).findFirst().orElseThrow())
          .contains("pairs 10/10, completed");
    }
  }

  @Test
  @Timeout(180)
  void ctrlCSaysWhatItCancelsAndPrintsTheReportOfThePairsDone() throws Exception {
    try (Pane pane = Pane.start("ctrlc", 120, ab("--pairs", "1000", "--metrics", "metadata_stat"))) {
      pane.await("pair 2.1", 60);
      pane.keys("C-c");
      String screen = pane.awaitExit(60);

      assertThat(pane.exit(screen)).as(screen).isEqualTo(ExitCodes.FAILED);
      Matcher id = Pattern.compile("abfleet: interrupted: cancelling experiment (e-\\w+)").matcher(screen);
      assertThat(id.find()).as(screen).isTrue();
      // The partial report: the comparison table and the pairs it covers.
      assertThat(screen).as(screen).containsPattern("(?m)^metadata_stat ")
          .containsPattern("experiment " + id.group(1) + " cancelled \\(" + Pattern.quote(AbSession.INTERRUPTED)
              + "\\); the report covers the \\d+ of 1000 pairs done");
      try (ExperimentClient client = new ExperimentClient(address())) {
        assertThat(client.get(id.group(1)).getState()).isEqualTo("cancelled");
      }
    }
  }

  /** The command line of {@code abfleet ab} on the sim fleet, in a fresh JVM with the test class path. */
  private static List<String> ab(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-Dabfleet.home=" + dir.resolve("home"), "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "ab", "--controller", address(), "--hypervisor", "sim", "--seed", "7",
        "--iterations", "3",
        "--baseline", "base=" + SimArtifacts.kernel(dir.resolve("kernels"), "base", Map.of()).getUri(),
        "--candidate", "cand=" + SimArtifacts.kernel(dir.resolve("kernels"), "cand",
            Map.of("metadata_stat", 1.3)).getUri()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** A detached tmux session on its own server, running one command and then waiting. */
  private record Pane(String socket, Path script) implements AutoCloseable {
    static Pane start(String name, int columns, List<String> command) throws Exception {
      // tmux passes its command through a message of at most 16 KiB; the class path is longer.
      // The shell outlives a Ctrl-C (a trapped signal is default again in its child) to say
      // how the command exited.
      Path script = dir.resolve(name + ".sh");
      Files.writeString(script, "trap true INT\n" + String.join(" ", command.stream().map(Pane::quote).toList())
          + "\necho EXIT=$?\nsleep 600\n");
      Pane pane = new Pane("abfleet-test-" + name + "-" + ProcessHandle.current().pid(), script);
      pane.tmux("new-session", "-d", "-s", "ab", "-x", String.valueOf(columns), "-y", "40", "sh " + script);
      pane.tmux("set-option", "-t", "ab", "history-limit", "10000");
      return pane;
    }

    private static String quote(String arg) {
      return "'" + arg.replace("'", "'\\''") + "'";
    }

    String screen() throws Exception {
      return tmux("capture-pane", "-p", "-S", "-", "-t", "ab");
    }

    void keys(String keys) throws Exception {
      tmux("send-keys", "-t", "ab", keys);
    }

    String await(String text, int seconds) {
      return Eventually.until("'" + text + "' in the pane", Duration.ofSeconds(seconds), this::screen,
          screen -> screen.contains(text));
    }

    String awaitExit(int seconds) {
      return await("EXIT=", seconds);
    }

    int exit(String screen) {
      Matcher m = EXIT.matcher(screen);
      assertThat(m.find()).as(screen).isTrue();
      return Integer.parseInt(m.group(1));
    }

    String tmux(String... args) throws IOException, InterruptedException {
      List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket, "-f", "/dev/null"));
      cmd.addAll(List.of(args));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0).as(cmd + ": " + out).isTrue();
      return out;
    }

    @Override
    public void close() throws IOException {
      try {
        new ProcessBuilder("tmux", "-L", socket, "kill-server").redirectErrorStream(true).start()
            .waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
