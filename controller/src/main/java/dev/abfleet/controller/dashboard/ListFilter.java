package dev.abfleet.controller.dashboard;

import dev.abfleet.controller.report.ExperimentFacts;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The front page's filters, from its GET query: {@code state} (running, queued, completed,
 * cancelled, failed), {@code schedule} (nightly = started by a nightly schedule, on-demand =
 * submitted by someone) and {@code kernel} (a substring of an arm's name, its kernel's URI or
 * SHA-256, or its build's source, case-insensitive). Empty = any.
 */
record ListFilter(String state, String schedule, String kernel) {
  static final List<String> STATES = List.of("running", "queued", "completed", "cancelled",
      "failed");
  static final List<String> SCHEDULES = List.of("nightly", "on-demand");
  /** Longer is not a kernel name: a pasted log line, most likely. */
  static final int KERNEL_MAX = 200;

  static final ListFilter NONE = new ListFilter("", "", "");

  /** A filter, or why the query cannot be one. */
  record Parsed(ListFilter filter, Optional<String> error) {}

  /** Unknown parameters are ignored; a bad value is an error and the list is unfiltered. */
  static Parsed parse(Map<String, String> query) {
    String state = query.getOrDefault("state", "").strip().toLowerCase(Locale.ROOT);
    String schedule = query.getOrDefault("schedule", "").strip().toLowerCase(Locale.ROOT);
    String kernel = query.getOrDefault("kernel", "").strip();
    if (!state.isEmpty() && !STATES.contains(state)) {
      return new Parsed(NONE, Optional.of("unknown state '" + state + "'; expected one of "
          + String.join(", ", STATES) + ", or none for any"));
    }
    if (!schedule.isEmpty() && !SCHEDULES.contains(schedule)) {
      return new Parsed(NONE, Optional.of("unknown schedule '" + schedule + "'; expected nightly"
          + " or on-demand, or none for any"));
    }
    if (kernel.length() > KERNEL_MAX) {
      return new Parsed(NONE, Optional.of("kernel filter of " + kernel.length()
          + " characters; give at most " + KERNEL_MAX + " (a part of a kernel's name or path)"));
    }
    return new Parsed(new ListFilter(state, schedule, kernel), Optional.empty());
  }

  boolean any() {
    return !state.isEmpty() || !schedule.isEmpty() || !kernel.isEmpty();
  }

  boolean matches(Experiment e) {
    return (state.isEmpty() || state.equals(stateOf(e)))
        && (schedule.isEmpty() || schedule.equals(scheduleOf(e)))
        && (kernel.isEmpty() || e.getSpec().getArmsList().stream().anyMatch(this::kernelMatches));
  }

  /** "queued" for a running experiment that waits for a host, else the experiment's state. */
  static String stateOf(Experiment e) {
    return ExperimentFacts.queued(e) ? "queued" : e.getState();
  }

  /** "nightly" when a nightly schedule started it (its priority says so), else "on-demand". */
  static String scheduleOf(Experiment e) {
    return e.getSpec().getPriority().equals("nightly") ? "nightly" : "on-demand";
  }

  private boolean kernelMatches(Arm a) {
    String needle = kernel.toLowerCase(Locale.ROOT);
    var k = a.getBoot().getKernel();
    return List.of(a.getName(), k.getUri(), k.getSha256(), a.getBuild().getSource()).stream()
        .anyMatch(s -> s.toLowerCase(Locale.ROOT).contains(needle));
  }
}
