package dev.abfleet.cli.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.config.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeriesFileTest {
  @TempDir Path dir;

  private Path file(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  @Test
  void aSingleColumnIsOneValuePerLineWithGapsAndComments() throws IOException {
    SeriesFile f = SeriesFile.read(file("s.csv", "# nightly metadata_stat\n812.5\n\n815\n,\n790\n"));
    assertThat(f.values()).containsExactly(812.5, 815, Double.NaN, 790);
    assertThat(f.points().get(0).date()).isEmpty();
  }

  @Test
  void aHeaderNamesTheColumnsInAnyOrder() throws IOException {
    SeriesFile f = SeriesFile.read(file("s.csv", "label,value,date\nabc,812.5,2026-03-10\ndef,,2026-03-11\n"));
    assertThat(f.points()).containsExactly(new SeriesFile.Point("2026-03-10", "abc", 812.5),
        new SeriesFile.Point("2026-03-11", "def", Double.NaN));
  }

  @Test
  void jsonlObjectsCarryValueAndOptionalDateAndLabel() throws IOException {
    SeriesFile f = SeriesFile.read(file("s.jsonl",
        "{\"value\": 812.5, \"date\": \"2026-03-10\", \"label\": \"abc\"}\n{\"value\": null}\n{\"value\": 3}\n"));
    assertThat(f.values()).containsExactly(812.5, Double.NaN, 3);
    assertThat(f.points().get(0).label()).isEqualTo("abc");
  }

  @Test
  void badInputNamesTheFileAndLine() throws IOException {
    assertThatThrownBy(() -> SeriesFile.read(file("a.csv", "812\nfast\n"))).isInstanceOf(Problem.class)
        .hasMessageEndingWith("a.csv:2: value 'fast' is not a number (an empty cell = a gap)");
    assertThatThrownBy(() -> SeriesFile.read(file("b.csv", "2026-03-10,812\n")))
        .hasMessageContaining("b.csv:1: 2 columns and no header; start the file with a header naming them");
    assertThatThrownBy(() -> SeriesFile.read(file("c.jsonl", "{\"value\": \"fast\"}\n")))
        .hasMessageContaining("c.jsonl:1: \"value\" is \"fast\"; expected a number");
    assertThatThrownBy(() -> SeriesFile.read(file("d.jsonl", "812\n")))
        .hasMessageContaining("d.jsonl:1: expected an object with \"value\"");
    assertThatThrownBy(() -> SeriesFile.read(file("e.csv", "# nothing\n")))
        .hasMessageContaining("e.csv has no values");
  }

  @Test
  void aFifoOrADirectoryIsRefusedWithoutReadingIt() throws Exception {
    Path fifo = dir.resolve("pipe.csv");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(p.waitFor()).isZero();
    assertThatThrownBy(() -> SeriesFile.read(fifo)).hasMessageContaining("pipe.csv: not a regular file");
    assertThatThrownBy(() -> SeriesFile.read(dir)).hasMessageContaining("not a regular file");
  }
}
