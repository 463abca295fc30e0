package dev.abfleet.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * The measured noise of an experiment's host classes, after its report: each renderer's output
 * unchanged, then one line per class (text, Markdown) or a {@code noise_calibration} array
 * (JSON). Without calibrations the report is exactly what {@link TextReport},
 * {@link MarkdownReport} and {@link JsonReport} render alone.
 */
public final class NoiseSection {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private NoiseSection() {}

  public static String text(Report r, List<NoiseCalibration> noise) {
    StringBuilder out = new StringBuilder(TextReport.render(r));
    noise.forEach(n -> out.append(line(n, false)).append('\n'));
    return out.toString();
  }

  public static String markdown(Report r, List<NoiseCalibration> noise) {
    StringBuilder out = new StringBuilder(MarkdownReport.render(r));
    if (!noise.isEmpty()) {
      out.append('\n');
      noise.forEach(n -> out.append("- ").append(line(n, true)).append('\n'));
    }
    return out.toString();
  }

  /** The report's JSON object with {@code noise_calibration} added (omitted without calibrations). */
  public static String json(Report r, List<NoiseCalibration> noise) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format_version", JsonReport.FORMAT_VERSION);
    root.setAll(JsonReport.experiment(r));
    if (!noise.isEmpty()) {
      ArrayNode a = root.putArray("noise_calibration");
      noise.forEach(n -> a.add(json(n)));
    }
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * "host class qemu/tcg: measured A/A false-positive rate 0/3 experiments (95% Wilson 0-56%),
   * calibrated 2026-12-03; noise per metric: metadata_stat CV 2.1%, paired sd 2.9%; ...; pairs for
   * a 2% change at 80% power: 14".
   */
  public static String line(NoiseCalibration n, boolean markdown) {
    String cls = markdown ? "`" + n.hostClass() + "`" : n.hostClass();
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "host class %s: measured A/A false-positive rate %d/%d experiments (95%% Wilson %s-%s),"
            + " calibrated %s; noise per metric: ", cls, n.falsePositives(), n.experiments(),
        pct(n.fpLow()).replace("%", ""), pct(n.fpHigh()), n.date()));
    sb.append(String.join("; ", n.metrics().stream().map(m -> String.format(Locale.ROOT,
        "%s CV %s, paired sd %s (%d %s)", m.metric(), pct(m.cv()), pct(m.pairedSd()), m.pairs(),
        m.pairs() == 1 ? "pair" : "pairs")).toList()));
    long need = n.pairsForMde();
    sb.append(String.format(Locale.ROOT, "; pairs for a %s change at %s power: %s", pct(n.mde()),
        pct(n.power()), need < 0 ? "unknown (too few calibration pairs)" : String.valueOf(need)));
    return sb.toString();
  }

  private static ObjectNode json(NoiseCalibration n) {
    ObjectNode o = JSON.createObjectNode();
    o.put("class", n.hostClass());
    o.put("experiments", n.experiments());
    o.put("false_positives", n.falsePositives());
    number(o, "fp_rate", n.fpRate());
    ArrayNode interval = o.putArray("fp_interval");
    interval.add(n.fpLow()).add(n.fpHigh());
    o.put("date", n.date());
    o.put("mde", n.mde());
    o.put("power", n.power());
    if (n.pairsForMde() < 0) {
      o.putNull("pairs_for_mde");
    } else {
      o.put("pairs_for_mde", n.pairsForMde());
    }
    ArrayNode metrics = o.putArray("metrics");
    for (NoiseCalibration.Metric m : n.metrics()) {
      ObjectNode mo = metrics.addObject();
      mo.put("metric", m.metric());
      number(mo, "cv", m.cv());
      number(mo, "paired_sd", m.pairedSd());
      mo.put("pairs", m.pairs());
      if (m.pairsForMde() < 0) {
        mo.putNull("pairs_for_mde");
      } else {
        mo.put("pairs_for_mde", m.pairsForMde());
      }
    }
    return o;
  }

  /** "2.1%", "0%", "56%"; "?" for NaN. */
  public static String pct(double fraction) {
    if (!Double.isFinite(fraction)) {
      return "?";
    }
    double p = 100 * fraction;
    return (p >= 10 || p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f", p)
        : String.format(Locale.ROOT, "%.1f", p)) + "%";
  }

  private static void number(ObjectNode o, String field, double v) {
    if (Double.isFinite(v)) {
      o.put(field, v);
    } else {
      o.putNull(field);
    }
  }
}
