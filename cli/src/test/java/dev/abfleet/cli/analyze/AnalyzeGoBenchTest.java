package dev.abfleet.cli.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.ExitCodes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code analyze old.txt new.txt} on two {@code go test -bench . -count 6} outputs (3 benchmarks
 * x ns/op, MB/s, B/op; Decode-8 about 25% slower in new.txt). Reference values from python3 with
 * numpy/scipy over the same files: medians, the order statistics of the 95% interval
 * (scipy.stats.binom), scipy.stats.gmean, scipy.stats.mannwhitneyu (exact) and Holm over the 9
 * rows by hand.
 */
class AnalyzeGoBenchTest {
  @TempDir Path dir;
  Path old;
  Path neu;

  @BeforeEach
  void copyFixtures() throws IOException {
    old = copy("old.txt");
    neu = copy("new.txt");
  }

  private Path copy(String name) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/analyze/gobench/" + name)) {
      Path p = dir.resolve(name);
      Files.copy(in, p);
      return p;
    }
  }

  private static List<String> cells(String out, String section, String benchmark) {
    String block = out.substring(out.indexOf("\n" + section + " ("));
    String line = block.lines().filter(l -> l.startsWith(benchmark + " ")).findFirst().orElseThrow();
    return List.of(line.split(" {2,}"));
  }

  @Test
  void goBenchmarkFilesNeedNoFormatFlagAndGiveTheBenchstatTable() {
    AnalyzeCommandTest.Run r = AnalyzeCommandTest.run("analyze", old.toString(), neu.toString());

    assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
    assertThat(r.out()).startsWith("goos: linux\ngoarch: amd64\npkg: example.com/codec\n"
            + "cpu: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\nold (baseline) vs new, unpaired\n")
        .contains("p: Mann-Whitney, per row; p_holm: Holm-adjusted across the 9 gating rows")
        .contains("\nns/op (lower is better)\nbenchmark   old            new            n    change"
            + "  CI (95% joint)    p      p_holm  verdict\n")
        .contains("\nMB/s (higher is better)\n")
        .contains("\nB/op (lower is better)\n")
        .contains("verdict: regressed");
    // medians 2172.9 and 2734.25, spreads 0.017396 and 0.023096; p = 2/924 (complete
    // separation), Holm 9 x 2/924 = 0.0195
    assertThat(cells(r.out(), "ns/op", "Decode-8")).containsExactly("Decode-8", "2.173k ± 1.7%",
        "2.734k ± 2.3%", "6+6", "+25.6%", "[+23.2%, +28.9%]", "0.002", "0.019", "regressed");
    // p 0.4848 (exact), Holm caps at 1
    assertThat(cells(r.out(), "ns/op", "Encode-8")).containsExactly("Encode-8", "1.226k ± 1.2%",
        "1.233k ± 2.0%", "6+6", "+0.8%", "[-2.0%, +3.3%]", "0.485", "1.000",
        "inconclusive (underpowered)");
    assertThat(cells(r.out(), "MB/s", "Decode-8")).containsExactly("Decode-8", "1.885k ± 1.7%",
        "1.498k ± 2.3%", "6+6", "-20.4%", "[-22.4%, -18.8%]", "0.002", "0.019", "regressed");
  }

  @Test
  void goBenchmarkTableMatchesGoldenFile() throws IOException {
    AnalyzeCommandTest.Run r = AnalyzeCommandTest.run("analyze", old.toString(), neu.toString());
    String golden;
    try (InputStream in = getClass().getResourceAsStream("/analyze/gobench/table-golden.txt")) {
      golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(r.out()).isEqualTo(golden);
  }

  @Test
  void configLinesTheFilesDisagreeOnAreShownPerFile() throws IOException {
    Path amd = Files.write(dir.resolve("amd.txt"), Files.readAllLines(neu).stream()
        .map(l -> l.startsWith("cpu:") ? "cpu: AMD EPYC 7B13" : l).toList());

    String out = AnalyzeCommandTest.run("analyze", old.toString(), amd.toString()).out();

    assertThat(out).startsWith("goos: linux\ngoarch: amd64\npkg: example.com/codec\n"
        + "cpu: old Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz, amd AMD EPYC 7B13\n"
        + "old (baseline) vs amd, unpaired\n");
  }

  @Test
  void eachUnitEndsWithAGeomeanRowOverTheBenchmarksInBothFiles() {
    String out = AnalyzeCommandTest.run("analyze", old.toString(), neu.toString()).out();

    // gmean of the medians: ns/op 1109.507 -> 1196.310 (+7.82%), MB/s 3691.808 -> 3423.921 (-7.26%)
    assertThat(cells(out, "ns/op", "geomean")).containsExactly("geomean", "1.110k", "1.196k", "+7.8%");
    assertThat(cells(out, "MB/s", "geomean")).containsExactly("geomean", "3.692k", "3.424k", "-7.3%");
    assertThat(cells(out, "B/op", "geomean")).containsExactly("geomean", "-", "-", "-");
    assertThat(out).contains("geomean: needs every centre > 0, Checksum-8 has 0\n");
  }

  @Test
  void aGoBenchmarkFileWithFewerThanSixResultsShowsAnInfiniteSpreadAndSaysWhy() throws IOException {
    Path few = Files.write(dir.resolve("few.txt"), Files.readAllLines(neu).stream()
        .filter(l -> !l.startsWith("BenchmarkEncode") || l.contains("1228.9")).toList());

    AnalyzeCommandTest.Run r = AnalyzeCommandTest.run("analyze", old.toString(), few.toString());

    assertThat(r.code()).isEqualTo(ExitCodes.OK);
    assertThat(cells(r.out(), "ns/op", "Encode-8").get(2)).isEqualTo("1.229k ± ∞");
    assertThat(r.out()).contains("± ∞: fewer than 6 values, too few for a 95% interval of the median\n");
  }

  @Test
  void otherOutputFormatsOfGoInputAreTheReportsOwn() throws IOException {
    AnalyzeCommandTest.Run r = AnalyzeCommandTest.run("analyze", "--format", "json", old.toString(),
        neu.toString());
    assertThat(r.code()).isEqualTo(ExitCodes.OK);
    JsonNode e = new ObjectMapper().readTree(r.out()).get("experiments").get(0);
    assertThat(e.get("design").asText()).isEqualTo("unpaired");
    assertThat(e.get("comparisons")).hasSize(9);
    assertThat(r.out()).doesNotContain("geomean");
  }

  @Test
  void rejectsAFileThatIsNeitherFormatNamingItsFirstLineAndTheFlag() throws IOException {
    Path csv = Files.writeString(dir.resolve("bench.csv"), "name,ns_per_op\nEncode,1234\n");

    AnalyzeCommandTest.Run r = AnalyzeCommandTest.run("analyze", old.toString(), csv.toString());

    assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip()).isEqualTo("abfleet: " + csv + ": neither abfleet JSON Lines nor Go"
        + " benchmark output: first line (1) 'name,ns_per_op'; pass --input-format jsonl or"
        + " --input-format gobench to read it as one and see the first line at fault");
  }

  @Test
  void rejectsGoBenchmarkTextMixedWithJsonLines() throws IOException {
    Path jsonl = Files.write(dir.resolve("s.jsonl"), AnalyzeCommandTest.pairs("e1", 6, 1.0));

    AnalyzeCommandTest.Run r = AnalyzeCommandTest.run("analyze", old.toString(), jsonl.toString());

    assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err()).contains(jsonl + ": abfleet JSON Lines, but " + old
        + " is Go benchmark output; pass files of one format");
  }

  @Test
  void goBenchmarkTextForcedAsJsonLinesStillSaysWhichFlagReadsIt() {
    AnalyzeCommandTest.Run r = AnalyzeCommandTest.run("analyze", "--input-format", "jsonl",
        old.toString(), neu.toString());
    assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err()).contains("old.txt:1: not a JSON object").contains("pass --input-format gobench");
  }
}
