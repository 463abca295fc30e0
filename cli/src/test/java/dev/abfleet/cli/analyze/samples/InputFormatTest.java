package dev.abfleet.cli.analyze.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class InputFormatTest {
  private static InputFormat.Detected detect(String text) throws IOException {
    return InputFormat.detect(TextLines.of(text));
  }

  @Test
  void detectsGoBenchmarkTextByItsResultLinesAfterTheConfigLines() throws IOException {
    assertThat(detect("goos: linux\ngoarch: amd64\npkg: example.com/codec\n"
        + "cpu: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\n"
        + "BenchmarkEncode-8   \t808000\t    1237.8 ns/op\t 3309.08 MB/s\t192 B/op\nPASS\n").format())
        .isEqualTo(InputFormat.GOBENCH);
  }

  @Test
  void detectsGoBenchmarkTextWithTestLogLinesBeforeTheResults() throws IOException {
    assertThat(detect("=== RUN   TestSetup\n--- PASS: TestSetup (0.00s)\n"
        + "BenchmarkEncode-8 1000 1234 ns/op\n").format()).isEqualTo(InputFormat.GOBENCH);
  }

  @Test
  void detectsGoBenchmarkTextFromConfigLinesAloneSoThatTheReaderSaysNoBenchmarkRan()
      throws IOException {
    assertThat(detect("goos: linux\ngoarch: amd64\nPASS\nok  \texample.com/codec\t0.01s\n").format())
        .isEqualTo(InputFormat.GOBENCH);
  }

  @Test
  void detectsJsonLinesByTheirFirstObject() throws IOException {
    assertThat(detect("\n{\"arm\":\"base\",\"boot\":\"b1\",\"metric\":\"stat\",\"value\":1.5}\n").format())
        .isEqualTo(InputFormat.JSONL);
  }

  @Test
  void reportsNeitherFormatQuotingTheFirstLineAndTheFlag() throws IOException {
    InputFormat.Detected d = detect("name,value\nstat,1.5\n");
    assertThat(d.format()).isNull();
    assertThat(d.problem()).isEqualTo("neither abfleet JSON Lines nor Go benchmark output: first line"
        + " (1) 'name,value'; pass --input-format jsonl or --input-format gobench to read it as one and"
        + " see the first line at fault");
  }

  @Test
  void reportsAFirstLineThatIsNotUtf8AsTheReadersWould() throws IOException {
    InputFormat.Detected d = InputFormat.detect(new TextLines(new ByteArrayInputStream(
        new byte[] {'\n', (byte) 0xff, (byte) 0xfe, 0x00, 0x41, '\n'})));
    assertThat(d.format()).isNull();
    assertThat(d.line()).isEqualTo(2);
    assertThat(d.problem()).startsWith("not UTF-8 text; save the file as UTF-8");
  }

  @Test
  void reportsAnEmptyFile() throws IOException {
    assertThat(detect("\n \n").problem()).startsWith("empty (no samples)");
  }

  @Test
  void aBenchmarkLineNeedsAnIterationCountAndAValueWithUnit() throws IOException {
    assertThat(detect("BenchmarkEncode is slow\n").format()).isNull();
    assertThat(detect("BenchmarkEncode-8 1000\n").format()).isNull();
  }

  @Test
  void rejectsAnUnknownInputFormatFlagNamingTheChoices() {
    assertThat(InputFormat.ofFlag("auto")).isNull();
    assertThat(InputFormat.ofFlag("gobench")).isEqualTo(InputFormat.GOBENCH);
    assertThatThrownBy(() -> InputFormat.ofFlag("csv")).hasMessage("--input-format 'csv': expected"
        + " jsonl or gobench (or auto, the default: detect each file's format)");
  }
}
