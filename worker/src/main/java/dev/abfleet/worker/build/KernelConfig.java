package dev.abfleet.worker.build;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Kernel .config text as values: {@code CONFIG_X -> "y" / "m" / value}; an absent key is not set. */
public final class KernelConfig {

  /** The value a request map uses for {@code # CONFIG_X is not set}. */
  public static final String NOT_SET = "n";

  private static final Pattern SET = Pattern.compile("^(CONFIG_[A-Za-z0-9_]+)=(.*)$");
  private static final Pattern UNSET = Pattern.compile("^# (CONFIG_[A-Za-z0-9_]+) is not set$");

  private KernelConfig() {}

  /** The options a .config sets; {@code =n} and {@code # ... is not set} lines are left out. */
  public static Map<String, String> parse(String text) {
    Map<String, String> config = new LinkedHashMap<>();
    requests(text).forEach((k, v) -> {
      if (!v.equals(NOT_SET)) {
        config.put(k, v);
      }
    });
    return Collections.unmodifiableMap(config);
  }

  /**
   * What a fragment asks for, later lines winning: set options with their value and
   * {@code # CONFIG_X is not set} (or {@code CONFIG_X=n}) as {@value #NOT_SET}. Other lines are ignored.
   */
  public static Map<String, String> requests(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      Matcher set = SET.matcher(line);
      Matcher unset = UNSET.matcher(line);
      if (set.matches()) {
        out.put(set.group(1), set.group(2).equals("n") ? NOT_SET : set.group(2));
      } else if (unset.matches()) {
        out.put(unset.group(1), NOT_SET);
      }
    }
    return out;
  }

  /**
   * The requested options the final config does not have as asked, in request order, e.g.
   * {@code CONFIG_FOO=y requested, final: not set}, {@code CONFIG_BAR=y requested, final: m}
   * or {@code CONFIG_BAZ=n requested, final: y}.
   */
  public static List<String> dropped(Map<String, String> requested, Map<String, String> finalConfig) {
    List<String> out = new ArrayList<>();
    requested.forEach((option, want) -> {
      String got = finalConfig.getOrDefault(option, NOT_SET);
      if (!got.equals(want)) {
        out.add(option + "=" + want + " requested, final: " + (got.equals(NOT_SET) ? "not set" : got));
      }
    });
    return out;
  }

  /**
   * {@code base} with each fragment merged over it in order, as kconfig's merge_config.sh -m
   * does: the lines of every option a fragment names are removed and the fragment's lines
   * appended, so the last word on an option is the only one. {@code make olddefconfig} then
   * settles dependencies and choices.
   */
  public static String merge(String base, List<String> fragments) {
    List<String> lines = new ArrayList<>(List.of(base.split("\n")));
    for (String fragment : fragments) {
      var named = requests(fragment).keySet();
      lines.removeIf(l -> named.contains(optionOf(l)));
      lines.addAll(List.of(fragment.split("\n")));
    }
    return String.join("\n", lines) + "\n";
  }

  /** The option a .config line sets or unsets, or null for other lines. */
  private static String optionOf(String line) {
    Matcher set = SET.matcher(line.strip());
    if (set.matches()) {
      return set.group(1);
    }
    Matcher unset = UNSET.matcher(line.strip());
    return unset.matches() ? unset.group(1) : null;
  }

  /** True when any option is built as a module. */
  public static boolean hasModules(Map<String, String> config) {
    return config.containsValue("m");
  }
}
