package dev.abfleet.cli.analyze;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * {@code --format json}. Field names are a public interface (scripts depend on them): change
 * them only with a new {@code format_version}. Numbers that cannot be computed are null;
 * change, ci_low and ci_high are relative (candidate/baseline - 1) whatever the direction.
 */
final class JsonOutput {
  static final int FORMAT_VERSION = 1;
  private static final JsonFactory JSON = new JsonFactory();

  private JsonOutput() {}

  static String render(List<ExperimentResult> results) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeNumberField("format_version", FORMAT_VERSION);
      g.writeArrayFieldStart("experiments");
      for (ExperimentResult r : results) {
        experiment(g, r);
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out + "\n";
  }

  private static void experiment(JsonGenerator g, ExperimentResult r) throws IOException {
    g.writeStartObject();
    g.writeStringField("experiment", r.experiment());
    g.writeStringField("baseline", r.baseline());
    g.writeArrayFieldStart("candidates");
    for (String c : r.candidates()) {
      g.writeString(c);
    }
    g.writeEndArray();
    g.writeStringField("design", r.paired() ? "paired" : "unpaired");
    g.writeObjectFieldStart("policy");
    number(g, "noise_threshold", r.policy().noiseThreshold());
    number(g, "alpha", r.policy().alpha());
    g.writeArrayFieldStart("looks");
    for (int look : r.policy().looks()) {
      g.writeNumber(look);
    }
    g.writeEndArray();
    g.writeEndObject();
    boolean byClass = r.comparisons().stream().anyMatch(c -> !c.hostClass().isEmpty());
    g.writeArrayFieldStart("comparisons");
    for (int k = 0; k < r.comparisons().size(); k++) {
      comparison(g, r.arms().get(k), r.comparisons().get(k), byClass);
    }
    g.writeEndArray();
    g.writeArrayFieldStart("boot_failures");
    for (Map.Entry<String, BootFailureComparison> e : r.bootFailures().entrySet()) {
      BootFailureComparison b = e.getValue();
      g.writeStartObject();
      g.writeStringField("arm", e.getKey());
      g.writeNumberField("baseline_failed", b.baselineFailed());
      g.writeNumberField("baseline_boots", b.baselineBoots());
      g.writeNumberField("candidate_failed", b.candidateFailed());
      g.writeNumberField("candidate_boots", b.candidateBoots());
      number(g, "p_value", b.pValue());
      g.writeStringField("verdict", b.verdict().wire());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeStringField("overall", r.overall());
    g.writeEndObject();
  }

  /** @param byClass the experiment has host classes: every row says its class ("" = pooled) */
  private static void comparison(JsonGenerator g, String arm, Comparison c, boolean byClass)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("arm", arm);
    g.writeStringField("metric", c.metric());
    g.writeStringField("unit", c.unit());
    g.writeStringField("better", c.better().wire());
    g.writeBooleanField("gating", c.gating());
    g.writeNumberField("n_baseline", c.nBaseline());
    g.writeNumberField("n_candidate", c.nCandidate());
    g.writeNumberField("n_pairs", c.nPairs());
    number(g, "baseline_center", c.baselineCenter());
    number(g, "candidate_center", c.candidateCenter());
    number(g, "change", c.change());
    number(g, "ci_low", c.ciLow());
    number(g, "ci_high", c.ciHigh());
    number(g, "p_value", c.pValue());
    number(g, "p_adjusted", c.pAdjusted());
    if (byClass) {
      g.writeStringField("host_class", c.hostClass());
    }
    g.writeStringField("verdict", c.verdict().wire());
    strings(g, "reasons", c.reasons());
    strings(g, "warnings", c.warnings());
    g.writeEndObject();
  }

  private static void number(JsonGenerator g, String name, double v) throws IOException {
    if (Double.isFinite(v)) {
      g.writeNumberField(name, v);
    } else {
      g.writeNullField(name);
    }
  }

  private static void strings(JsonGenerator g, String name, List<String> values)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (String s : values) {
      g.writeString(s);
    }
    g.writeEndArray();
  }
}
