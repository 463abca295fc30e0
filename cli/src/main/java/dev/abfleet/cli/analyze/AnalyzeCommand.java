package dev.abfleet.cli.analyze;

import dev.abfleet.cli.analyze.samples.Analyzer;
import dev.abfleet.cli.analyze.samples.GoBenchReader;
import dev.abfleet.cli.analyze.samples.InputFormat;
import dev.abfleet.cli.analyze.samples.JsonlReader;
import dev.abfleet.cli.analyze.samples.ParseError;
import dev.abfleet.cli.analyze.samples.Parsed;
import dev.abfleet.cli.analyze.samples.Sample;
import dev.abfleet.cli.analyze.samples.SampleChecks;
import dev.abfleet.cli.analyze.samples.TextLines;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.PolicyRanges;
import dev.abfleet.config.Problem;
import dev.abfleet.cli.ReportFormat;
import dev.abfleet.report.Report;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.VerdictEngine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code abfleet analyze}: verdicts from recorded per-boot samples, offline. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Verdicts per metric from recorded samples: JSON Lines (one sample per line, many",
      "experiments per file) or Go benchmark text (one file per arm). Uses the same engine as",
      "'abfleet ab'. Exit codes: 0 done (with --gate: the gate passed, every gating metric improved,",
      "no_change or holds); 1 with --gate when a gating metric regressed or a candidate failed to boot",
      "significantly more often; 2 bad input; 4 with --gate when the gate is inconclusive."
    })
public final class AnalyzeCommand implements Callable<Integer> {
  @Option(names = "--baseline", paramLabel = "ARM",
      description = "Baseline arm (default: the first arm in the input; gobench: the first file).")
  String baseline;

  @Option(names = "--threshold", defaultValue = "" + dev.abfleet.stats.Policy.DEFAULT_NOISE_THRESHOLD, paramLabel = "R",
      description = "Noise threshold, relative (default: ${DEFAULT-VALUE}).")
  double threshold;

  @Option(names = "--alpha", defaultValue = "" + dev.abfleet.stats.Policy.DEFAULT_ALPHA, paramLabel = "A",
      description = "Family-wise significance level per experiment (default: ${DEFAULT-VALUE}).")
  double alpha;

  @Option(names = "--max-pairs", paramLabel = "N",
      description = "Use only the first N pairs (unpaired: the first N boots per arm).")
  Integer maxPairs;

  @Option(names = "--looks", split = ",", paramLabel = "N",
      description = "Pair counts at which the experiment looked (group-sequential), e.g. 8,16,32.")
  List<Integer> looks;

  @Option(names = "--futility", defaultValue = "" + dev.abfleet.stats.Policy.DEFAULT_FUTILITY_EFFECT, paramLabel = "R",
      description = "With --looks: a metric whose interval rules out a change of R or more stops as no_change"
          + " (futility stop, beta 10%%); 0 = none (default: ${DEFAULT-VALUE}, as fleet.yaml).")
  double futility;

  @Option(names = "--seed", defaultValue = "" + VerdictEngine.DEFAULT_SEED, paramLabel = "S",
      description = "Seed of the host bootstrap (default: fixed, results are reproducible).")
  long seed;

  @Option(names = "--input-format", defaultValue = "auto", paramLabel = "FORMAT",
      description = "jsonl, gobench, or auto: detect each file's format (default: ${DEFAULT-VALUE}).")
  String inputFormat;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
      description = "text, json, markdown or html (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--gate", description = "Exit 0 when the gate passes (every gating metric improved, no_change"
      + " or holds), 1 when one regressed, 4 when the gate is inconclusive.")
  boolean gate;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Input files.")
  List<Path> files;

  PrintStream out = System.out;

  @Override
  public Integer call() {
    Policy policy = policy();
    ReportFormat fmt = ReportFormat.parse(format);
    InputFormat input = inputFormat();
    List<Sample> samples = read(input);
    if (samples.isEmpty()) {
      throw new Problem(files.get(0) + ": no samples found (expected "
          + (input == InputFormat.GOBENCH ? "Benchmark lines" : "JSON Lines") + ", one sample per line);"
          + " pass a file of samples, and check --input-format (jsonl or gobench)");
    }
    List<Report> reports;
    try {
      reports = Analyzer.analyze(samples, baseline, maxPairs, policy, seed);
    } catch (IllegalArgumentException e) {
      throw new Problem(e.getMessage());
    }
    out.print(input == InputFormat.GOBENCH && fmt == ReportFormat.TEXT
        ? GoBenchTable.render(reports.get(0), samples, goConfig()) : fmt.render(reports));
    out.flush();
    if (!gate) {
      return ExitCodes.OK;
    }
    // the worst gate over the experiments in the input: one failure fails, one undecided is undecided
    List<Integer> codes = reports.stream()
        .map(r -> ExitCodes.ofGate(r.assessment().gate(), r.assessment().overall())).toList();
    return codes.contains(ExitCodes.GATE) ? ExitCodes.GATE
        : codes.contains(ExitCodes.GATE_INCONCLUSIVE) ? ExitCodes.GATE_INCONCLUSIVE : ExitCodes.OK;
  }

  private Policy policy() {
    PolicyRanges.threshold(threshold);
    PolicyRanges.alpha(alpha);
    if (maxPairs != null && maxPairs < 1) {
      throw new Problem("--max-pairs " + maxPairs + ": expected a count >= 1");
    }
    List<Integer> l = looks == null ? List.of() : looks;
    for (int k = 0; k < l.size(); k++) {
      if (l.get(k) < 1 || (k > 0 && l.get(k) <= l.get(k - 1))) {
        throw new Problem("--looks " + l + ": expected ascending pair counts, e.g. 8,16,32");
      }
    }
    if (!(futility >= 0 && futility < 0.5)) {
      throw new Problem("--futility " + futility + ": expected a relative change from 0 (none) to below 0.5,"
          + " e.g. 0.05 for 5%");
    }
    return new Policy(threshold, alpha, l).withFutility(futility, Policy.DEFAULT_FUTILITY_BETA);
  }

  /**
   * The format of every file: --input-format, else each file's detected format, which must be
   * the same for all (a Go benchmark file is one arm; JSON Lines name their arms).
   */
  private InputFormat inputFormat() {
    InputFormat given;
    try {
      given = InputFormat.ofFlag(inputFormat);
    } catch (IllegalArgumentException e) {
      throw new Problem(e.getMessage());
    }
    if (given != null) {
      return given;
    }
    InputFormat found = null;
    Path foundIn = null;
    for (Path file : files) {
      InputFormat.Detected d = open(file, InputFormat::detect);
      if (d.format() == null) {
        throw new Problem(file + (d.line() > 0 ? ":" + d.line() : "") + ": " + d.problem());
      }
      if (found != null && d.format() != found) {
        throw new Problem(file + ": " + d.format().label + ", but " + foundIn + " is " + found.label
            + "; pass files of one format");
      }
      found = d.format();
      foundIn = file;
    }
    return found;
  }

  /** Per arm (file) its Go configuration lines. */
  private Map<String, Map<String, String>> goConfig() {
    Map<String, Map<String, String>> config = new java.util.LinkedHashMap<>();
    for (Path file : files) {
      config.put(arm(file), open(file, GoBenchReader::config));
    }
    return config;
  }

  private interface LinesReader<T> {
    T read(TextLines in) throws IOException;
  }

  /** What {@code reader} makes of the file's lines; a file that cannot be read is a Problem. */
  private static <T> T open(Path file, LinesReader<T> reader) {
    dev.abfleet.model.RegularFiles.special(file, "file of samples").ifPresent(p -> {
      throw new Problem(p);
    });
    try (TextLines in = new TextLines(Files.newInputStream(file))) {
      return reader.read(in);
    } catch (NoSuchFileException e) {
      throw new Problem(file + ": no such file; pass an existing file of samples");
    } catch (IOException e) {
      throw new Problem(file + (Files.isDirectory(file) ? ": is a directory; pass the sample files themselves"
          : ": cannot read: " + e.getMessage() + "; check the path and its permissions"));
    }
  }

  private List<Sample> read(InputFormat input) {
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    long orderBase = 0;
    List<String> armsSeen = new ArrayList<>();
    Map<Path, Path> filesSeen = new HashMap<>();
    for (Path file : files) {
      Path first = filesSeen.putIfAbsent(file.toAbsolutePath().normalize(), file);
      if (first != null) {
        throw new Problem(file + ": given twice (also as " + first + "); pass each file once");
      }
      Parsed p;
      if (input == InputFormat.GOBENCH) {
        String arm = arm(file);
        if (armsSeen.contains(arm)) {
          throw new Problem(file + ": arm '" + arm + "' given twice (arm = file name without"
              + " extension); rename one file");
        }
        armsSeen.add(arm);
        long base = orderBase;
        p = open(file, in -> GoBenchReader.read(file.toString(), arm, in, base));
      } else {
        long base = orderBase;
        p = open(file, in -> JsonlReader.read(file.toString(), in, base));
      }
      samples.addAll(p.samples());
      errors.addAll(p.errors());
      orderBase += 1L << 40;
    }
    if (input == InputFormat.JSONL) {
      errors.addAll(SampleChecks.check(samples));
    }
    if (!errors.isEmpty()) {
      String more = errors.size() >= JsonlReader.MAX_BAD_LINES ? "at least " : "";
      throw new Problem(errors.get(0)
          + (errors.size() > 1 ? " (and " + more + (errors.size() - 1) + " more bad lines)" : ""));
    }
    return samples;
  }

  /** File name without its extension. */
  static String arm(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }
}
