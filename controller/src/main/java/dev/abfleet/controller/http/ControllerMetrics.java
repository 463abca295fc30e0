package dev.abfleet.controller.http;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The controller node's metrics, kept with the Prometheus Java client and served as Prometheus
 * text at {@code /metrics}. Thread-safe: gRPC threads and actors count concurrently. Counters
 * live in memory and start at 0 with the node (Prometheus handles counter resets); the fleet's
 * gauges (hosts by state, leases, queue depth) are the scheduler's view, set before each scrape
 * ({@link #observeFleet}).
 *
 * <p>Label sets are bounded: hosts, hypervisors, architectures, gRPC methods, status codes,
 * priorities and a handful of reasons; never experiment or run ids.
 */
public final class ControllerMetrics {
  /** Reason label of a worker refused because its certificate names another host. */
  public static final String WRONG_IDENTITY = "wrong_identity";

  /** Boot durations span seconds (TCG boots of a small kernel) to the boot timeout. */
  private static final double[] BOOT_SECONDS = {0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800};
  /** Calls span a cache hit (sub-millisecond) to an artifact upload (minutes). */
  private static final double[] CALL_SECONDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
      0.5, 1, 2.5, 5, 10, 30, 120};

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter rejected = Counter.builder().name("abfleet_rejected_reports_total")
      .help("Worker reports refused and never recorded (stale lease epochs among them), by host and reason.")
      .labelNames("host", "reason").register(registry);
  private final Counter rateLimited = Counter.builder().name("abfleet_rate_limited_total")
      .help("Calls (kind=call) and worker stream messages (kind=worker_message) refused by a rate limit.")
      .labelNames("kind").register(registry);
  private final Counter calls = Counter.builder().name("abfleet_grpc_calls_total")
      .help("gRPC calls ended, by method and status code.")
      .labelNames("method", "code").register(registry);
  private final Histogram callSeconds = Histogram.builder().name("abfleet_grpc_call_duration_seconds")
      .help("Time from a gRPC call's start to its end, by method and status code (streams: their whole life).")
      .unit(Unit.SECONDS).classicOnly().classicUpperBounds(CALL_SECONDS)
      .labelNames("method", "code").register(registry);
  private final Gauge connectedHosts = Gauge.builder().name("abfleet_connected_hosts")
      .help("Worker streams open on this node.").register(registry);
  private final Counter bootsStarted = Counter.builder().name("abfleet_boots_started_total")
      .help("Boots workers started, by hypervisor and host architecture.")
      .labelNames("hypervisor", "arch").register(registry);
  private final Counter bootsFinished = Counter.builder().name("abfleet_boots_finished_total")
      .help("Boots workers reported, by hypervisor, host architecture and outcome (ok or failed).")
      .labelNames("hypervisor", "arch", "outcome").register(registry);
  private final Histogram bootSeconds = Histogram.builder().name("abfleet_boot_duration_seconds")
      .help("Wall time of a reported boot, VM start to VM end, by hypervisor and host architecture.")
      .unit(Unit.SECONDS).classicOnly().classicUpperBounds(BOOT_SECONDS)
      .labelNames("hypervisor", "arch").register(registry);
  private final Counter droppedCommands = Counter.builder().name("abfleet_dropped_commands_total")
      .help("Messages between the controller's actors that were lost: kind=dropped (a full stash or"
          + " mailbox), dead_letter (the recipient had stopped), unhandled (no handler for it)."
          + " Anything but 0 is a defect.")
      .labelNames("kind").register(registry);
  private final Counter lateReplies = Counter.builder().name("abfleet_late_replies_total")
      .help("Answers that reached an ask after it had timed out: the command was handled, but too"
          + " late for the caller, who saw a timeout (a slow scheduler or experiment; not a lost"
          + " command, so not in abfleet_dropped_commands_total).")
      .register(registry);
  private final Counter deferredReports = Counter.builder().name("abfleet_deferred_reports_total")
      .help("Worker reports answered RESOURCE_EXHAUSTED because the scheduler was behind;"
          + " the worker keeps each and sends it again after a backoff.")
      .register(registry);
  private final Counter experimentStalls = Counter.builder().name("abfleet_experiment_stalls_total")
      .help("Times a running experiment on this node wrote nothing for its watchdog's time (15 s)"
          + " while a pair of it waited for a host, and asked the scheduler for hosts again. Grows"
          + " after a scheduler failover and while experiments queue behind others; growing with"
          + " idle hosts means the scheduler is not serving the experiments.")
      .register(registry);
  private volatile DoubleSupplier schedulerLag = () -> 0;
  private volatile FleetGauges fleet = FleetGauges.UNKNOWN;
  private volatile Supplier<CompletionStage<FleetGauges>> fleetSource = () -> CompletableFuture.completedFuture(fleet);

  public ControllerMetrics() {
    // Known label values start at 0, so a rate() over them is defined before the first count.
    rateLimited.labelValues("call");
    rateLimited.labelValues("worker_message");
    for (DroppedKind kind : DroppedKind.values()) {
      droppedCommands.labelValues(kind.label());
    }
    GaugeWithCallback.builder().name("abfleet_hosts")
        .help("Hosts the scheduler knows, by state (idle, leased, draining, quarantined, offline, ...).")
        .labelNames("state")
        .callback(cb -> fleet.hostsByState().forEach((state, n) -> cb.call(n, state)))
        .register(registry);
    GaugeWithCallback.builder().name("abfleet_scheduler_answer_seconds")
        .help("How long the scheduler took to answer this node's latest probe (or has waited so far);"
            + " over 5 s, worker reports are deferred. 0 until the first probe.")
        .unit(Unit.SECONDS)
        .callback(cb -> cb.call(schedulerLag.getAsDouble()))
        .register(registry);
    GaugeWithCallback.builder().name("abfleet_leases")
        .help("Hosts leased to an experiment now.")
        .callback(cb -> cb.call(fleet.leases()))
        .register(registry);
    GaugeWithCallback.builder().name("abfleet_queue_depth")
        .help("Experiments waiting for a host, by priority.")
        .labelNames("priority")
        .callback(cb -> fleet.queueByPriority().forEach((priority, n) -> cb.call(n, priority)))
        .register(registry);
    GaugeWithCallback.builder().name("abfleet_fleet_view_age_seconds")
        .help("Age of the scheduler's view behind abfleet_hosts, abfleet_leases and abfleet_queue_depth;"
            + " -1 when the scheduler did not answer.")
        .callback(cb -> cb.call(fleet.ageSeconds()))
        .register(registry);
  }

  /** A worker's report was refused and never recorded; {@code reason} as in hosts list. */
  public void rejectReport(String hostId, String reason) {
    rejected.labelValues(hostId, reason).inc();
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
    rateLimited.labelValues(kind).inc();
  }

  /** How an actor message was lost: the {@code kind} label of abfleet_dropped_commands_total. */
  public enum DroppedKind {
    /** Dropped by a full stash or bounded mailbox (Pekko's {@code Dropped}). */
    DROPPED("dropped"),
    /** Sent to an actor that had stopped (a reply to a timed-out ask is a late reply instead). */
    DEAD_LETTER("dead_letter"),
    /** Received by an actor with no handler for it. */
    UNHANDLED("unhandled");

    private final String label;

    DroppedKind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** An actor message was lost (see {@link DroppedKind}). */
  public void commandDropped(DroppedKind kind) {
    droppedCommands.labelValues(kind.label()).inc();
  }

  /** An answer reached an ask that had timed out. */
  public void lateReply() {
    lateReplies.inc();
  }

  /** Late answers counted so far on this node. */
  public long lateReplies() {
    return (long) lateReplies.get();
  }

  /** Where abfleet_scheduler_answer_seconds reads from (the worker edge's probe), in seconds. */
  public void schedulerLagSource(DoubleSupplier seconds) {
    schedulerLag = seconds;
  }

  /** A running experiment stalled and asked for hosts again. */
  public void experimentStalled() {
    experimentStalls.inc();
  }

  /** Experiment stalls counted so far on this node. */
  public long experimentStalls() {
    return (long) experimentStalls.get();
  }

  /** A worker's report was deferred (the scheduler was behind); it will come again. */
  public void reportDeferred() {
    deferredReports.inc();
  }

  /** Reports deferred so far. */
  public long deferredReports() {
    return (long) deferredReports.get();
  }

  /** Actor messages lost of {@code kind} so far. */
  public long droppedCommands(DroppedKind kind) {
    return (long) droppedCommands.labelValues(kind.label()).get();
  }

  /** Actor messages lost so far, of every kind (what the fleet bench sums from /metrics). */
  public long droppedCommands() {
    long sum = 0;
    for (DroppedKind kind : DroppedKind.values()) {
      sum += droppedCommands(kind);
    }
    return sum;
  }

  /** A gRPC call ended with {@code code} (e.g. "OK", "RESOURCE_EXHAUSTED"). */
  public void callEnded(String fullMethodName, String code) {
    calls.labelValues(fullMethodName, code).inc();
  }

  /** A gRPC call ended with {@code code} after {@code took}. */
  public void callEnded(String fullMethodName, String code, Duration took) {
    callEnded(fullMethodName, code);
    callSeconds.labelValues(fullMethodName, code).observe(took.toNanos() / 1e9);
  }

  public void hostConnected() {
    connectedHosts.inc();
  }

  public void hostDisconnected() {
    connectedHosts.dec();
  }

  /** A worker started a boot on {@code hypervisor} (a host of {@code arch}). */
  public void bootStarted(String hypervisor, String arch) {
    bootsStarted.labelValues(label(hypervisor), label(arch)).inc();
  }

  /**
   * A worker reported a boot: {@code ok} false for a failure of any kind; {@code took} its wall
   * time, null when the report did not say.
   */
  public void bootFinished(String hypervisor, String arch, boolean ok, Duration took) {
    bootsFinished.labelValues(label(hypervisor), label(arch), ok ? "ok" : "failed").inc();
    if (took != null) {
      bootSeconds.labelValues(label(hypervisor), label(arch)).observe(took.toMillis() / 1000.0);
    }
  }

  /** The scheduler's view the next scrape shows. */
  public void observeFleet(FleetGauges view) {
    fleet = view;
  }

  /**
   * Where {@link #scrape()} asks for the fleet's view: the scheduler, on a controller node. A
   * failed or timed-out answer shows as {@link FleetGauges#UNKNOWN}.
   */
  public void fleetSource(Supplier<CompletionStage<FleetGauges>> source) {
    fleetSource = source;
  }

  /** The fleet's view asked for now, then every metric rendered as {@link #render()} does. */
  public CompletionStage<String> scrape() {
    CompletionStage<FleetGauges> view;
    try {
      view = fleetSource.get();
    } catch (RuntimeException e) {
      view = CompletableFuture.failedFuture(e);
    }
    return view.handle((v, e) -> {
      observeFleet(e == null && v != null ? v : FleetGauges.UNKNOWN);
      return render();
    });
  }

  /** Rejected reports of {@code hostId} under {@code reason} so far (tests, the bench). */
  public long rejectedReports(String hostId, String reason) {
    return (long) rejected.labelValues(hostId, reason).get();
  }

  /** Calls or messages refused by a rate limit of {@code kind} so far. */
  public long rateLimitedCount(String kind) {
    return (long) rateLimited.labelValues(kind).get();
  }

  /** Every metric in the Prometheus text exposition format (version 0.0.4). */
  public String render() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
    } catch (IOException e) {
      throw new UncheckedIOException("writing metrics to memory", e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The content type of {@link #render()}. */
  public static String contentType() {
    return PrometheusTextFormatWriter.CONTENT_TYPE;
  }

  private static String label(String value) {
    return value == null || value.isEmpty() ? "unknown" : value;
  }
}
