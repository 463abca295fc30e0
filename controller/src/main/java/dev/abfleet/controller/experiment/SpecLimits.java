package dev.abfleet.controller.experiment;

import java.util.List;
import java.util.regex.Pattern;

/**
 * How large a spec may be and what its free-text fields may hold. Checked before anything else:
 * a spec with 100,000 arms is refused with one problem, not 100,000 of them, and no name with a
 * newline or a terminal escape reaches a report, a log line or a shell.
 */
final class SpecLimits {
  private SpecLimits() {}

  static final int MAX_ARMS = 32;
  static final int MAX_METRICS = 256;
  static final int MAX_LOOKS = 64;
  static final int MAX_LABELS = 64;
  static final int MAX_MODULES = 256;
  static final int MAX_TEXT = 256;
  /** Linux takes a command line of at most 2048 bytes on x86 (COMMAND_LINE_SIZE), more on arm64. */
  static final int MAX_CMDLINE = 4096;
  private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

  /**
   * Adds a problem per count over its cap and per bad free-text field.
   *
   * @return true when a list is too long to check its elements one by one
   */
  static boolean check(ExperimentSpec spec, List<String> problems) {
    int before = problems.size();
    count("arms", spec.arms().size(), MAX_ARMS, "compare fewer kernels per experiment", problems);
    count("benchmark.metrics", spec.benchmark().metrics().size(), MAX_METRICS,
        "list fewer metrics (empty = every metric of the harness)", problems);
    count("policy.gating_metrics", spec.policy().gatingMetrics().size(), MAX_METRICS,
        "gate on fewer metrics", problems);
    count("policy.looks", spec.policy().looks().size(), MAX_LOOKS, "look fewer times", problems);
    count("selector.labels", spec.selector().labels().size(), MAX_LABELS, "select by fewer labels", problems);
    boolean tooLong = problems.size() > before;
    text("name", spec.name(), MAX_TEXT, problems);
    if (!tooLong) {
      for (int i = 0; i < spec.arms().size(); i++) {
        ArmSpec arm = spec.arms().get(i);
        count("arms[" + i + "].modules", arm.guest().modules().size(), MAX_MODULES, "load fewer modules", problems);
        text("arms[" + i + "].modules_dir", arm.guest().modulesDir(), MAX_TEXT, problems);
        text("arms[" + i + "].cmdline_extra", arm.cmdlineExtra() == null ? "" : arm.cmdlineExtra(), MAX_CMDLINE,
            problems);
      }
      List<String> metrics = spec.benchmark().metrics();
      for (int i = 0; i < metrics.size(); i++) {
        nonEmptyText("benchmark.metrics[" + i + "]", metrics.get(i), problems);
      }
      List<String> gating = spec.policy().gatingMetrics();
      for (int i = 0; i < gating.size(); i++) {
        nonEmptyText("policy.gating_metrics[" + i + "]", gating.get(i), problems);
      }
    }
    return tooLong;
  }

  private static void count(String field, int n, int max, String fix, List<String> problems) {
    if (n > max) {
      problems.add(field + ": " + n + " entries; at most " + max + " are allowed, " + fix);
    }
  }

  /** At most {@code max} characters, no control characters (empty is fine). */
  static void text(String field, String value, int max, List<String> problems) {
    if (value.length() > max) {
      problems.add(field + ": " + value.length() + " characters; use at most " + max);
    } else if (CONTROL.matcher(value).find()) {
      problems.add(field + ": '" + shown(value) + "' contains control characters (newline, tab, escape);"
          + " write it on one line of printable text");
    }
  }

  private static void nonEmptyText(String field, String value, List<String> problems) {
    if (value.isEmpty()) {
      problems.add(field + ": empty; name a metric, or leave the list empty");
    } else {
      text(field, value, MAX_TEXT, problems);
    }
  }

  /** {@code value} for a one-line message: control characters as '?', at most 100 characters. */
  static String shown(String value) {
    return dev.abfleet.model.BenchmarkChecks.quote(value);
  }
}
