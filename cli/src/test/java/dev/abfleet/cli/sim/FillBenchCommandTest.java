package dev.abfleet.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.MainRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FillBenchCommandTest {
  @Test
  void fillsTheStoreToTheSizeAskedWithExperimentsStoreCheckFinds(@TempDir Path home) throws Exception {
    MainRun.Result fill = MainRun.run("bench", "fill", "--home", home.toString(), "--mb", "2",
        "--small-events", "40", "--big-events", "400", "--big-every", "3");
    assertThat(fill.exit()).as(fill.err()).isZero();
    Matcher filled = Pattern.compile("filled: (\\d+) experiments").matcher(fill.out());
    assertThat(filled.find()).as(fill.out()).isTrue();
    int experiments = Integer.parseInt(filled.group(1));
    assertThat(experiments).isPositive();
    assertThat(Files.size(home.resolve("store").resolve("controller.mv.db"))).isGreaterThanOrEqualTo(2L << 20);

    MainRun.Result check = MainRun.run("store", "check", "--home", home.toString());
    assertThat(check.exit()).as(check.err()).isZero();
    assertThat(check.out() + check.err()).contains("is readable: " + experiments + " experiments");
  }

  @Test
  void rejectsASizeOfZero(@TempDir Path home) {
    MainRun.Result fill = MainRun.run("bench", "fill", "--home", home.toString(), "--mb", "0");
    assertThat(fill.exit()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(fill.err()).contains("--mb 0: expected 1 to 1000000");
  }
}
