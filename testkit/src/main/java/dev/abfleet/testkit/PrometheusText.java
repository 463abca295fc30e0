package dev.abfleet.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Parses Prometheus text exposition with the Prometheus project's own parser
 * ({@code prometheus_client.parser} of Debian's python3-prometheus-client, run by
 * {@code /usr/bin/python3}), so a test checks /metrics against an independent reader, not
 * against our writer's idea of the format. Without that package the test is skipped;
 * {@code ABFLEET_TEST_PROMETHEUS_REQUIRED=1} (set by {@code bin/test}) makes that a failure.
 */
public final class PrometheusText {
  private static final String PYTHON = "/usr/bin/python3";
  // One line per sample: family, type, sample name, labels as k=v joined by ',', value.
  private static final String SCRIPT = String.join("\n",
      "import sys",
      "from prometheus_client.parser import text_string_to_metric_families",
      "text = open(sys.argv[1], encoding='utf-8').read()",
      "for f in text_string_to_metric_families(text):",
      "    print('F\\t%s\\t%s' % (f.name, f.type))",
      "    for s in f.samples:",
      "        labels = ','.join('%s=%s' % kv for kv in sorted(s.labels.items()))",
      "        print('S\\t%s\\t%s\\t%s\\t%r' % (f.name, s.name, labels, s.value))");

  private PrometheusText() {}

  /** One sample as the parser read it. */
  public record Sample(String family, String name, Map<String, String> labels, double value) {}

  /**
   * @param types each family's type (counter, gauge, histogram, ...) by family name
   * @param samples every sample, in order
   */
  public record Parsed(Map<String, String> types, List<Sample> samples) {
    /** The samples named {@code name} (e.g. abfleet_boots_started_total). */
    public List<Sample> named(String name) {
      return samples.stream().filter(s -> s.name().equals(name)).toList();
    }
  }

  /**
   * Parses {@code text}; a text the parser rejects fails with its message.
   *
   * @throws AssertionError when the parser rejects the text
   */
  public static Parsed parse(String text) {
    requireParser();
    try {
      Path file = Files.createTempFile("metrics", ".txt");
      Path script = Files.createTempFile("parse-metrics", ".py");
      try {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Files.writeString(script, SCRIPT, StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(PYTHON, script.toString(), file.toString())
            .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
          throw new AssertionError("prometheus_client.parser rejected the text: " + out);
        }
        return read(out);
      } finally {
        Files.deleteIfExists(file);
        Files.deleteIfExists(script);
      }
    } catch (IOException e) {
      throw new AssertionError("cannot run " + PYTHON + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while parsing metrics", e);
    }
  }

  private static Parsed read(String out) {
    Map<String, String> types = new LinkedHashMap<>();
    List<Sample> samples = new ArrayList<>();
    for (String line : out.split("\n")) {
      String[] f = line.split("\t", -1);
      if (f[0].equals("F")) {
        types.put(f[1], f[2]);
      } else if (f[0].equals("S")) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (!f[3].isEmpty()) {
          for (String kv : f[3].split(",")) {
            int eq = kv.indexOf('=');
            labels.put(kv.substring(0, eq), kv.substring(eq + 1));
          }
        }
        samples.add(new Sample(f[1], f[2], labels, Double.parseDouble(f[4].replace("inf", "Infinity"))));
      }
    }
    return new Parsed(types, samples);
  }

  private static void requireParser() {
    boolean present;
    try {
      Process p = new ProcessBuilder(PYTHON, "-c", "import prometheus_client.parser")
          .redirectErrorStream(true).start();
      present = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      present = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      present = false;
    }
    if (!present && "1".equals(System.getenv("ABFLEET_TEST_PROMETHEUS_REQUIRED"))) {
      throw new AssertionError("the Prometheus text parser is missing: apt-get install"
          + " python3-prometheus-client (bin/setup does)");
    }
    Assumptions.assumeTrue(present, "python3-prometheus-client is not installed; skipped");
  }
}
