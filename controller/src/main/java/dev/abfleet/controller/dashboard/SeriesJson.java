package dev.abfleet.controller.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.controller.nightly.RunRecord;
import dev.abfleet.controller.nightly.Series;
import dev.abfleet.stats.changepoint.ChangePoint;

/**
 * A nightly series as {@code /api/nightly/series} answers it, with the field names of
 * {@code abfleet history --format json}: runs numbered from 1 ({@code run}, as the text and the
 * charts number them), a change point's {@code run} the first run at the new level, its medians
 * those of the final segments on either side; a number that is not finite is null. Each run
 * carries its {@code decision} (accepted, held or rejected), {@code decided_by} and
 * {@code decision_reason}.
 */
final class SeriesJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SeriesJson() {}

  static String of(Series s) {
    ObjectNode root = JSON.createObjectNode()
        .put("schedule", s.schedule()).put("metric", s.metric()).put("series", s.series())
        .put("unit", s.unit()).put("better", s.better()).put("min_change", s.minChange());
    ArrayNode runs = root.putArray("runs");
    for (int i = 0; i < s.runs().size(); i++) {
      RunRecord r = s.runs().get(i);
      ObjectNode o = runs.addObject().put("run", i + 1).put("date", r.date()).put("experiment", r.experiment())
          .put("state", r.state());
      number(o, "value", s.values()[i]);
      o.put("accepted", r.accepted()).put("decision", r.decision()).put("decided_by", r.decidedBy())
          .put("decision_reason", r.decisionReason());
    }
    ArrayNode points = root.putArray("change_points");
    for (ChangePoint cp : s.detection().points()) {
      ObjectNode o = points.addObject().put("run", cp.index() + 1).put("date", s.runs().get(cp.index()).date());
      number(o, "before", cp.beforeMedian());
      number(o, "after", cp.afterMedian());
      number(o, "shift", cp.shift());
      number(o, "relative", cp.relative());
      number(o, "statistic", cp.statistic());
      number(o, "p_value", cp.pValue());
    }
    ArrayNode warnings = root.putArray("warnings");
    s.detection().warnings().forEach(warnings::add);
    return root.toString();
  }

  private static void number(ObjectNode n, String field, double value) {
    if (Double.isFinite(value)) {
      n.put(field, value);
    } else {
      n.putNull(field);
    }
  }
}
