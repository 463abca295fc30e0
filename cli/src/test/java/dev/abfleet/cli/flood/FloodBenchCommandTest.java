package dev.abfleet.cli.flood;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class FloodBenchCommandTest {
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(new PrintWriter(err, true), args);
  }

  @Test
  void outOfRangeOptionsAreExitTwoWithTheRange() {
    assertThat(run("bench", "flood", "--seconds", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--seconds 0: expected 1 to 3600");
    assertThat(run("bench", "flood", "--threads", "1000")).isEqualTo(2);
    assertThat(err.toString()).contains("--threads 1000: expected 1 to 256");
    assertThat(run("bench", "flood", "--huge-mib", "-1")).isEqualTo(2);
    assertThat(err.toString()).contains("--huge-mib -1: expected 0 to 1024");
  }

  @Test
  void defaultsAreThirtySecondsFourThreadsAndAHundredMegabytes() {
    FloodBenchCommand command = new FloodBenchCommand();
    new CommandLine(command).parseArgs();
    assertThat(command.seconds).isEqualTo(30);
    assertThat(command.threads).isEqualTo(4);
    assertThat(command.rate).isEqualTo(20);
    assertThat(command.hugeMib).isEqualTo(100);
  }

  @Test
  void aShortRunKeepsTheWellBehavedClientServedAndLosesNothing() throws Exception {
    FloodBenchCommand command = new FloodBenchCommand();
    new CommandLine(command).parseArgs("--seconds", "1", "--threads", "2", "--rate", "10", "--huge-mib", "5");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    command.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    int exit = command.call();

    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(out).isZero();
    assertThat(out).contains("without flood:").contains("with flood:").contains("after flood:")
        .contains("5 MiB message: RESOURCE_EXHAUSTED")
        .containsPattern("4 of 4 submitted experiments found")
        .containsPattern("\\d+ accepted, \\d+ rate-limited");
  }
}
