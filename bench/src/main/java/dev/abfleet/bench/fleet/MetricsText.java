package dev.abfleet.bench.fleet;

/** Sums of samples in Prometheus text exposition format (what a controller's /metrics serves). */
public final class MetricsText {
  private MetricsText() {}

  /**
   * The sum of every sample of {@code metric} whose labels contain {@code labelPart} (empty =
   * any); 0 when the metric is absent.
   */
  public static double sum(String text, String metric, String labelPart) {
    double sum = 0;
    for (String line : text.split("\n")) {
      if (line.startsWith("#") || !line.startsWith(metric)) {
        continue;
      }
      String rest = line.substring(metric.length());
      if (!(rest.startsWith("{") || rest.startsWith(" "))) {
        continue; // another metric whose name starts with this one
      }
      if (!labelPart.isEmpty() && !rest.contains(labelPart)) {
        continue;
      }
      String[] parts = line.trim().split(" ");
      // The value follows the labels; an optional timestamp may follow it.
      int valueAt = rest.startsWith("{") ? indexAfterLabels(parts) : 1;
      sum += Double.parseDouble(parts[valueAt]);
    }
    return sum;
  }

  private static int indexAfterLabels(String[] parts) {
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].endsWith("}")) {
        return i + 1;
      }
    }
    throw new IllegalArgumentException("metrics line without closing '}': " + String.join(" ", parts));
  }
}
