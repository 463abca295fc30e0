package dev.abfleet.config;

import dev.abfleet.model.CounterRatio;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ratios: [{name, num, den}]} of fleet.yaml benchmarks and spec files: counter ratios the
 * reports show per boot ({@link CounterRatio}), validated like the rest ({@code file:line:
 * problem; fix}).
 */
final class RatioConfig {
  private static final Set<String> KEYS = Set.of("name", "num", "den");
  private static final String EXAMPLE = "e.g. ratios: [{name: res_per_virtio_req, num: RES,"
      + " den: \"virtio*-request*\"}]";

  private RatioConfig() {}

  /** The ratios listed; an empty list = none declared (the reports show the default ones). */
  static List<CounterRatio> parse(YamlNode list) {
    List<YamlNode> items = list.sequence();
    if (items.size() > CounterRatio.MAX) {
      throw list.problem(list.path() + " lists " + items.size() + " ratios; at most "
          + CounterRatio.MAX);
    }
    List<CounterRatio> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (YamlNode item : items) {
      Map<String, YamlNode> m = item.mapping(KEYS);
      for (String key : List.of("name", "num", "den")) {
        if (!m.containsKey(key)) {
          throw item.problem(item.path() + " has no " + key + "; a ratio needs name, num and den, "
              + EXAMPLE);
        }
      }
      String name = m.get("name").string();
      CounterRatio.nameProblem(name).ifPresent(p -> {
        throw m.get("name").problem(m.get("name").path() + ": " + p);
      });
      if (!names.add(name)) {
        throw m.get("name").problem(m.get("name").path() + ": " + CounterRatio.duplicate(name));
      }
      out.add(new CounterRatio(name, side(m.get("num"), "num"), side(m.get("den"), "den")));
    }
    return List.copyOf(out);
  }

  private static String side(YamlNode n, String side) {
    String pattern = n.string().trim();
    CounterRatio.rowProblem(side, pattern).ifPresent(p -> {
      throw n.problem(n.path() + ": " + p);
    });
    return pattern;
  }
}
