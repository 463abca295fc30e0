package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Workload;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.guest.GuestCounters;
import dev.abfleet.worker.guest.GuestSample;
import dev.abfleet.worker.guest.ParseError;
import dev.abfleet.worker.guest.ParsedRun;
import dev.abfleet.worker.guest.WorkloadEnd;
import dev.abfleet.worker.guest.WorkloadImage;
import dev.abfleet.worker.guest.WorkloadLine;
import dev.abfleet.worker.guest.WorkloadOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The workload side of a guest boot ({@code Benchmark.workload}): its image layers, its VM
 * timeout, and what its output gave. A workload that prints nothing valid, exits non-zero, is
 * killed at its timeout or floods the results channel fails the boot as HARNESS, the offending
 * line quoted. Pure except {@link #image}.
 */
final class WorkloadRun {

  /** The VM outlives the workload's own timeout by this much: boot before it, power-off after. */
  static final Duration VM_MARGIN = Duration.ofSeconds(60);
  /** The metric fleetbench reports the whole run's telemetry under. */
  static final String TELEMETRY_METRIC = "workload";

  /**
   * What a workload boot reports.
   *
   * @param samples the samples its output gave
   * @param counters the run's telemetry, once per metric it reported (work 1, work_unit "run")
   * @param errors its bad output lines, the first few
   * @param errorsOmitted further bad lines, counted
   * @param problem why the boot is a HARNESS failure, the offending line quoted; empty when it is not
   */
  record Outcome(List<GuestSample> samples, List<GuestCounters> counters, List<ParseError> errors,
      int errorsOmitted, Optional<String> problem) {

    /** Names of the metrics with a measured sample, in first-seen order. */
    Set<String> measuredMetrics() {
      Set<String> names = new LinkedHashSet<>();
      samples.stream().filter(s -> !s.warmup()).forEach(s -> names.add(s.metric()));
      return names;
    }
  }

  private WorkloadRun() {}

  /** Why the benchmark's workload cannot run as given (a CONFIG failure); empty when it can or there is none. */
  static Optional<String> configProblem(Benchmark b) {
    if (!b.hasWorkload()) {
      return Optional.empty();
    }
    Workload w = b.getWorkload();
    if (w.getFiles().getSha256().isEmpty()) {
      return Optional.of("workload files " + w.getFiles().getUri() + " were not packed (no sha256): the client packs"
          + " the workload's directory before it submits");
    }
    if (w.getRun().isBlank()) {
      return Optional.of("workload has no run command; give the shell command to run in the guest");
    }
    if (WorkloadOutput.Format.fromWire(w.getOutput()).isEmpty()) {
      return Optional.of("unknown workload output '" + w.getOutput() + "'; expected jsonl or gobench");
    }
    return Optional.empty();
  }

  /**
   * The image layers of the boot's workload, appended after the guest image and its modules: its
   * files (staged by hash) and its settings layer; none without a workload.
   */
  static List<Path> layers(ArtifactCache cache, Path cacheDir, Benchmark b) throws IOException {
    if (!b.hasWorkload()) {
      return List.of();
    }
    Workload w = b.getWorkload();
    Path files = cache.stage(w.getFiles().getSha256(), w.getFiles().getUri());
    Path settings = WorkloadImage.runLayer(cacheDir, w.getRun(), w.getTimeoutS());
    return List.of(files, settings);
  }

  /** The VM's timeout: the assigned one, or longer when the workload may run longer. */
  static Duration vmTimeout(Duration assigned, Benchmark b) {
    if (!b.hasWorkload()) {
      return assigned;
    }
    int s = b.getWorkload().getTimeoutS() == 0 ? WorkloadImage.DEFAULT_TIMEOUT_S : b.getWorkload().getTimeoutS();
    Duration needed = Duration.ofSeconds(s).plus(VM_MARGIN);
    return needed.compareTo(assigned) > 0 ? needed : assigned;
  }

  /**
   * What the boot's workload gave; null for a boot without a workload.
   *
   * @param overCap present when the console or results passed its cap: which and how large
   */
  static Outcome read(Benchmark b, ParsedRun parsed, Optional<String> overCap) {
    if (!b.hasWorkload()) {
      return null;
    }
    Workload w = b.getWorkload();
    WorkloadOutput.Format format = WorkloadOutput.Format.fromWire(w.getOutput()).orElse(WorkloadOutput.Format.JSONL);
    WorkloadOutput.Parsed out = WorkloadOutput.parse(format, parsed.workloadLines());
    List<GuestCounters> counters = new ArrayList<>();
    Set<String> metrics = new LinkedHashSet<>();
    out.samples().forEach(s -> metrics.add(s.metric()));
    parsed.counters().stream().filter(c -> c.metric().equals(TELEMETRY_METRIC)).findFirst().ifPresent(c ->
        metrics.forEach(m -> counters.add(new GuestCounters(m, 1, "run", c.interrupts(), c.contextSwitches(),
            c.interruptsTotal(), c.interruptsPerCpu(), c.softirqsPerCpu(), c.wakeupsPerCpu(), List.of()))));
    Optional<String> problem = problem(format, parsed, out, overCap);
    return new Outcome(out.samples(), counters, out.errors(), out.errorsOmitted(), problem);
  }

  static Optional<String> problem(WorkloadOutput.Format format, ParsedRun parsed, WorkloadOutput.Parsed out,
      Optional<String> overCap) {
    List<WorkloadLine> lines = parsed.workloadLines();
    if (overCap.isPresent()) {
      return Optional.of("the workload flooded the guest's output; " + firstBytes(lines) + "; " + lastLine(lines));
    }
    Optional<WorkloadEnd> end = parsed.workloadEnd();
    if (end.isEmpty()) {
      return Optional.of("the guest never reported the workload's end (did the guest stop while it ran?); " + lastLine(lines));
    }
    WorkloadEnd e = end.get();
    if (e.flooded()) {
      return Optional.of("workload printed more than the guest forwards (512 KiB on stdout) and was killed; " + firstBytes(lines)
          + "; " + lastLine(lines));
    }
    if (e.timedOut()) {
      return Optional.of("workload killed at its timeout of " + e.timeoutS() + " s; " + lastLine(lines));
    }
    if (e.signal() != 0) {
      return Optional.of("workload killed by signal " + e.signal() + "; " + offending(lines, out));
    }
    if (e.exitStatus() != 0) {
      return Optional.of("workload exited with status " + e.exitStatus() + "; " + offending(lines, out));
    }
    if (out.samples().isEmpty()) {
      return Optional.of("workload printed no valid " + format.wire() + " line; " + offending(lines, out));
    }
    return Optional.empty();
  }

  /** The first bad line, else the last line printed. */
  private static String offending(List<WorkloadLine> lines, WorkloadOutput.Parsed out) {
    return out.firstBad().map(b -> "first bad line: " + b.describe()).orElseGet(() -> lastLine(lines));
  }

  /** What a flooding workload printed first, as bytes: which program ran away. */
  private static String firstBytes(List<WorkloadLine> lines) {
    StringBuilder head = new StringBuilder();
    for (int i = 0; i < lines.size() && head.length() < FirstBytes.QUOTED; i++) {
      head.append(lines.get(i).text()).append('\n');
    }
    byte[] bytes = head.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return "first " + FirstBytes.QUOTED + " bytes on stdout: "
        + FirstBytes.quote(java.util.Arrays.copyOf(bytes, Math.min(bytes.length, FirstBytes.QUOTED)));
  }

  private static String lastLine(List<WorkloadLine> lines) {
    if (lines.isEmpty()) {
      return "it printed nothing on stdout";
    }
    WorkloadLine last = lines.get(lines.size() - 1);
    return "last line it printed (stdout line " + lines.size() + "): " + WorkloadOutput.quote(last.text());
  }
}
