package dev.abfleet.worker.guest;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Everything one boot's results channel said.
 *
 * @param start the start event, empty if none was seen (the harness never ran, or its line was lost)
 * @param samples every sample in channel order, warm-ups included
 * @param done whether the {@code done} event was seen (the harness finished writing)
 * @param elapsedMs the harness's own run time from the done event; empty if unknown
 * @param harnessErrors error events the harness reported
 * @param parseErrors lines that are not valid protocol, the first {@link GuestProtocol#MAX_PARSE_ERRORS}
 * @param parseErrorsOmitted further lines that are not valid protocol, counted but not kept
 * @param counters telemetry events, one per metric that finished, in channel order
 * @param setupErrors setup_error events of /init (a module or the host volume failed), in
 *     channel order; the harness did not run after one
 * @param workloadLines what a workload printed on its standard output, in order (empty for the
 *     built-in metrics)
 * @param workloadEnd how the workload ended; empty for the built-in metrics, or when the event
 *     never came
 */
public record ParsedRun(
    Optional<GuestStart> start,
    List<GuestSample> samples,
    boolean done,
    OptionalLong elapsedMs,
    List<HarnessError> harnessErrors,
    List<ParseError> parseErrors,
    int parseErrorsOmitted,
    List<GuestCounters> counters,
    List<SetupError> setupErrors,
    List<WorkloadLine> workloadLines,
    Optional<WorkloadEnd> workloadEnd) {

  public ParsedRun {
    workloadLines = List.copyOf(workloadLines);
    setupErrors = List.copyOf(setupErrors);
    counters = List.copyOf(counters);
    samples = List.copyOf(samples);
    harnessErrors = List.copyOf(harnessErrors);
    parseErrors = List.copyOf(parseErrors);
  }

  /** A run of the built-in metrics (no workload). */
  public ParsedRun(Optional<GuestStart> start, List<GuestSample> samples, boolean done, OptionalLong elapsedMs,
      List<HarnessError> harnessErrors, List<ParseError> parseErrors, int parseErrorsOmitted,
      List<GuestCounters> counters, List<SetupError> setupErrors) {
    this(start, samples, done, elapsedMs, harnessErrors, parseErrors, parseErrorsOmitted, counters, setupErrors,
        List.of(), Optional.empty());
  }

  /** Samples that count for verdicts (warm-ups dropped). */
  public List<GuestSample> measuredSamples() {
    return samples.stream().filter(s -> !s.warmup()).toList();
  }

  /** Names of the metrics with at least one measured sample, in first-seen order. */
  public Set<String> measuredMetrics() {
    Set<String> names = new LinkedHashSet<>();
    measuredSamples().forEach(s -> names.add(s.metric()));
    return names;
  }

  /** True when the harness started, finished, and reported no error event. */
  public boolean complete() {
    return start.isPresent() && done && harnessErrors.isEmpty();
  }
}
