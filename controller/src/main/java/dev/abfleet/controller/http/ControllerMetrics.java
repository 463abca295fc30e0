package dev.abfleet.controller.http;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The controller node's counters, rendered in the Prometheus text format for {@code /metrics}.
 * Thread-safe: gRPC threads and actors count concurrently. Counts live in memory and start at 0
 * with the node (Prometheus handles counter resets).
 */
public final class ControllerMetrics {
  /** Reason label of a worker refused because its certificate names another host. */
  public static final String WRONG_IDENTITY = "wrong_identity";

  private final Map<Labels, LongAdder> rejected = new ConcurrentHashMap<>();
  private final Map<Labels, LongAdder> rateLimited = new ConcurrentHashMap<>();
  private final Map<Labels, LongAdder> calls = new ConcurrentHashMap<>();
  private final AtomicLong connectedHosts = new AtomicLong();

  private record Labels(String first, String second) {}

  /** A worker's report was refused and never recorded; {@code reason} as in hosts list. */
  public void rejectReport(String hostId, String reason) {
    count(rejected, new Labels(hostId, reason));
  }

  /**
   * A worker was refused because the identity it proved (its certificate) names another host
   * than the one it claims: counted under the claimed host, reason {@value #WRONG_IDENTITY}.
   */
  public void rejectWorkerIdentity(String claimedHostId) {
    rejectReport(claimedHostId, WRONG_IDENTITY);
  }

  /** A call (kind "call") or a worker stream message (kind "worker_message") was refused. */
  public void rateLimited(String kind) {
    count(rateLimited, new Labels(kind, ""));
  }

  /** A gRPC call ended with {@code code} (e.g. "OK", "RESOURCE_EXHAUSTED"). */
  public void callEnded(String fullMethodName, String code) {
    count(calls, new Labels(fullMethodName, code));
  }

  public void hostConnected() {
    connectedHosts.incrementAndGet();
  }

  public void hostDisconnected() {
    connectedHosts.decrementAndGet();
  }

  /** Rejected reports of {@code hostId} under {@code reason} so far (tests, the bench). */
  public long rejectedReports(String hostId, String reason) {
    LongAdder n = rejected.get(new Labels(hostId, reason));
    return n == null ? 0 : n.sum();
  }

  /** Calls or messages refused by a rate limit of {@code kind} so far. */
  public long rateLimitedCount(String kind) {
    LongAdder n = rateLimited.get(new Labels(kind, ""));
    return n == null ? 0 : n.sum();
  }

  /** Every counter in the Prometheus text exposition format (version 0.0.4). */
  public String render() {
    StringBuilder out = new StringBuilder();
    family(out, "abfleet_rejected_reports_total", "counter",
        "Worker reports refused and never recorded, by host and reason.");
    sorted(rejected).forEach((l, n) -> sample(out, "abfleet_rejected_reports_total",
        "host", l.first(), "reason", l.second(), n));
    family(out, "abfleet_rate_limited_total", "counter",
        "Calls (kind=call) and worker stream messages (kind=worker_message) refused by a rate limit.");
    sorted(rateLimited).forEach((l, n) -> out.append("abfleet_rate_limited_total{kind=\"")
        .append(escape(l.first())).append("\"} ").append(n).append('\n'));
    family(out, "abfleet_grpc_calls_total", "counter", "gRPC calls ended, by method and status code.");
    sorted(calls).forEach((l, n) -> sample(out, "abfleet_grpc_calls_total",
        "method", l.first(), "code", l.second(), n));
    family(out, "abfleet_connected_hosts", "gauge", "Worker streams open on this node.");
    out.append("abfleet_connected_hosts ").append(connectedHosts.get()).append('\n');
    return out.toString();
  }

  private static void count(Map<Labels, LongAdder> counters, Labels labels) {
    counters.computeIfAbsent(labels, l -> new LongAdder()).increment();
  }

  private static Map<Labels, Long> sorted(Map<Labels, LongAdder> counters) {
    Map<Labels, Long> out = new TreeMap<>((a, b) -> a.first().equals(b.first())
        ? a.second().compareTo(b.second()) : a.first().compareTo(b.first()));
    counters.forEach((l, n) -> out.put(l, n.sum()));
    return out;
  }

  private static void family(StringBuilder out, String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n')
        .append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(StringBuilder out, String name, String k1, String v1, String k2,
      String v2, long n) {
    out.append(name).append('{').append(k1).append("=\"").append(escape(v1)).append("\",")
        .append(k2).append("=\"").append(escape(v2)).append("\"} ").append(n).append('\n');
  }

  /** Label values escape backslash, double quote and newline (the format's rule). */
  static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
