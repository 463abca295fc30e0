package dev.abfleet.cli.calibrate;

import dev.abfleet.bench.calibrate.Wilson;

import dev.abfleet.controller.noise.NoiseMeasure;
import dev.abfleet.cli.noise.NoiseQuotes;
import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.cli.noise.NoiseStore;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.NoiseCalibration;
import dev.abfleet.report.Numbers;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * {@code calibrate --real}'s measurement: the noise of finished A/A experiments per host class,
 * merged into the {@link NoiseStore}, and the table of what this run measured next to what the
 * store now holds. Runs nothing itself.
 */
public final class RealCalibration {
  private RealCalibration() {}

  /** Printed under a table that holds a sim class (text and markdown; JSON says "simulated": true). */
  static final String SIMULATED_CLASSES = "SIMULATION: a class marked (SIMULATION) is of sim hosts: its A/A false"
      + " positives, noise and pair counts come from the sim performance model, not from booted kernels; use"
      + " them for capacity planning only";

  /** What one run measured and what the store holds afterwards, per class. */
  public record Result(List<NoiseRecord> measured, List<NoiseRecord> stored) {}

  /** Measures {@code experiments} (failed ones are left out), merges per class, returns both. */
  public static Result record(List<Experiment> experiments, NoiseStore store, LocalDate date) {
    return record(experiments, store, null, date);
  }

  /**
   * As {@link #record(List, NoiseStore, LocalDate)}, also merging each class into the controller's
   * journal through {@code controller} (null = none); the records returned are then the
   * controller's, which every client quotes. The local store keeps its own copy for offline use.
   */
  public static Result record(List<Experiment> experiments, NoiseStore store, UnaryOperator<NoiseRecord> controller,
      LocalDate date) {
    Map<String, NoiseRecord> measured = new LinkedHashMap<>();
    for (Experiment e : experiments) {
      for (NoiseRecord r : NoiseMeasure.of(e, date)) {
        measured.merge(r.hostClass(), r, NoiseRecord::merge);
      }
    }
    List<NoiseRecord> stored = new ArrayList<>();
    for (NoiseRecord r : measured.values()) {
      NoiseRecord local = store.merge(r);
      stored.add(controller == null ? local : controller.apply(r));
    }
    return new Result(List.copyOf(measured.values()), stored);
  }

  /** The stored records as a table: text, markdown or json. */
  public static String render(List<NoiseRecord> stored, String format, double threshold, double alpha) {
    double mde = NoiseQuotes.mdeFor(threshold);
    List<NoiseCalibration> quotes = stored.stream()
        .map(r -> NoiseQuotes.quote(r, threshold, alpha, Math.max(1, r.gating().size()), NoiseQuotes.POWER)).toList();
    List<Boolean> simulated = stored.stream().map(NoiseRecord::simulated).toList();
    return switch (format.toLowerCase(Locale.ROOT)) {
      case "json" -> json(quotes, simulated);
      case "markdown", "md" -> table(quotes, simulated, true, mde);
      default -> table(quotes, simulated, false, mde);
    };
  }

  private static String table(List<NoiseCalibration> quotes, List<Boolean> simulated, boolean markdown, double mde) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"host class", "A/A false positives", "95% Wilson", "date", "metric", "CV of boot medians",
        "paired sd", "pairs", "pairs for " + dev.abfleet.report.NoiseSection.pct(mde)});
    for (int i = 0; i < quotes.size(); i++) {
      NoiseCalibration q = quotes.get(i);
      String cls = simulated.get(i) ? q.hostClass() + " (" + NoiseRecord.SIMULATION + ")" : q.hostClass();
      boolean first = true;
      for (NoiseCalibration.Metric m : q.metrics()) {
        rows.add(new String[] {first ? cls : "", first ? q.falsePositives() + "/" + q.experiments() : "",
            first ? pct(q.fpLow()) + "-" + pct(q.fpHigh()) : "", first ? q.date() : "", m.metric(), pct(m.cv()),
            pct(m.pairedSd()), String.valueOf(m.pairs()), m.pairsForMde() < 0 ? "?" : String.valueOf(m.pairsForMde())});
        first = false;
      }
    }
    if (!markdown) {
      return Numbers.table(rows);
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < rows.size(); i++) {
      out.append("| ").append(String.join(" | ", rows.get(i))).append(" |\n");
      if (i == 0) {
        out.append("|---|---:|---|---|---|---:|---:|---:|---:|\n");
      }
    }
    return out.toString();
  }

  private static String json(List<NoiseCalibration> quotes, List<Boolean> simulated) {
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper()
        .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);
    var root = mapper.createObjectNode();
    var classes = root.putArray("noise_calibration");
    for (int i = 0; i < quotes.size(); i++) {
      NoiseCalibration q = quotes.get(i);
      var o = classes.addObject().put("class", q.hostClass()).put("simulated", simulated.get(i))
          .put("experiments", q.experiments())
          .put("false_positives", q.falsePositives()).put("fp_rate", q.fpRate()).put("date", q.date());
      o.putArray("fp_interval").add(q.fpLow()).add(q.fpHigh());
      var metrics = o.putArray("metrics");
      for (NoiseCalibration.Metric m : q.metrics()) {
        var mo = metrics.addObject().put("metric", m.metric()).put("pairs", m.pairs());
        finite(mo, "cv", m.cv());
        finite(mo, "paired_sd", m.pairedSd());
      }
    }
    try {
      return mapper.writeValueAsString(root) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void finite(com.fasterxml.jackson.databind.node.ObjectNode o, String field, double v) {
    if (Double.isFinite(v)) {
      o.put(field, v);
    } else {
      o.putNull(field);
    }
  }

  static String pct(double f) {
    return Double.isFinite(f) ? String.format(Locale.ROOT, "%.1f%%", 100 * f) : "?";
  }
}
