package dev.abfleet.cli.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.Main;
import dev.abfleet.cli.TestJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Input analyze cannot use ends with one line naming the file, the line and the fix, exit 2. */
class AnalyzeBadInputTest {
  @TempDir Path dir;

  private static String oneLine(AnalyzeCommandTest.Run r) {
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
    return r.err().strip();
  }

  /**
   * In its own JVM: were /dev/zero read, it would end in OutOfMemoryError, which no test
   * survives. A device is refused before it is opened (an endless regular file's lines are
   * bounded: ReadersTest).
   */
  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void endlessDeviceIsRefusedWithOneLine() throws Exception {
    TestJvm.Result r = TestJvm.run(dir, "analyze", 80, Main.class, "analyze", "/dev/zero");
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("abfleet: /dev/zero is a character device, not a regular file; pass a regular"
        + " file of samples\n");
  }

  @Test
  void fileThatIsNotUtf8NamesTheLine() throws IOException {
    List<String> lines = AnalyzeCommandTest.pairs("e1", 4, 1.0);
    lines.set(2, lines.get(2).replace("cand", "candid\u00e9"));
    Path f = Files.write(dir.resolve("s.jsonl"), lines, StandardCharsets.ISO_8859_1);
    assertThat(oneLine(AnalyzeCommandTest.run("analyze", f.toString())))
        .isEqualTo("abfleet: " + f + ":3: not UTF-8 text; save the file as UTF-8 (e.g. iconv -f"
            + " latin1 -t utf-8)");
  }

  @Test
  void nanValueNamesTheLine() throws IOException {
    List<String> lines = AnalyzeCommandTest.pairs("e1", 4, 1.0);
    lines.set(2, lines.get(2).replaceAll("\"value\":[0-9.]+", "\"value\":NaN"));
    Path f = Files.write(dir.resolve("s.jsonl"), lines);
    assertThat(oneLine(AnalyzeCommandTest.run("analyze", f.toString())))
        .startsWith("abfleet: " + f + ":3: metric stat: value is NaN; values must be finite numbers");
  }

  @Test
  void bootLineRepeatedWithAnotherValueIsExitTwo() throws IOException {
    List<String> lines = new ArrayList<>(AnalyzeCommandTest.pairs("e1", 8, 1.0));
    lines.add(lines.get(0).replaceAll("\"value\":[0-9.]+", "\"value\":1500"));
    Path f = Files.write(dir.resolve("s.jsonl"), lines);
    assertThat(oneLine(AnalyzeCommandTest.run("analyze", f.toString())))
        .startsWith("abfleet: " + f + ":33: boot base-0, metric stat: a second value (1500.0 here,")
        .contains(f + ":1)");
  }

  @Test
  void mixedUnitsForOneMetricIsExitTwo() throws IOException {
    List<String> lines = new ArrayList<>(AnalyzeCommandTest.pairs("e1", 8, 1.0));
    lines.set(3, lines.get(3).replace("\"unit\":\"ms\"", "\"unit\":\"s\""));
    Path f = Files.write(dir.resolve("s.jsonl"), lines);
    assertThat(oneLine(AnalyzeCommandTest.run("analyze", f.toString())))
        .startsWith("abfleet: " + f + ":4: metric read is in 's' here but in 'ms' at " + f + ":2;");
  }

  @Test
  void sameFileTwiceIsExitTwo() throws IOException {
    Path f = Files.write(dir.resolve("s.jsonl"), AnalyzeCommandTest.pairs("e1", 8, 1.0));
    assertThat(oneLine(AnalyzeCommandTest.run("analyze", f.toString(), dir.resolve(".").resolve("s.jsonl").toString())))
        .isEqualTo("abfleet: " + dir.resolve(".").resolve("s.jsonl") + ": given twice (also as " + f
            + "); pass each file once");
  }
}
