package dev.abfleet.controller.nightly;

import dev.abfleet.model.NightlySchedule;

import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The schedules a controller fires and what it needs to run them.
 *
 * @param schedules fleet.yaml's {@code schedules:}; empty = none (the controller still answers
 *     history questions about imported runs)
 * @param configDir fleet.yaml's directory: relative kernel paths start there
 * @param preparer fills in what the guests of a spec need before it is submitted (each arm's
 *     architecture and guest image, the packed workload), as {@code abfleet ab} does; given by
 *     the process that starts the controller, since the controller cannot build images itself
 * @param aaNoise records what an A/A schedule's run measured
 * @param clock when schedules are due (the system clock; tests step a clock of their own)
 */
public record NightlySettings(List<NightlySchedule> schedules, Path configDir, UnaryOperator<ExperimentSpec> preparer,
    AaNoise aaNoise, Clock clock) {

  public NightlySettings {
    schedules = List.copyOf(schedules);
    Objects.requireNonNull(configDir, "configDir");
    Objects.requireNonNull(preparer, "preparer");
    Objects.requireNonNull(aaNoise, "aaNoise");
    Objects.requireNonNull(clock, "clock");
  }

  /** On the system clock. */
  public NightlySettings(List<NightlySchedule> schedules, Path configDir, UnaryOperator<ExperimentSpec> preparer,
      AaNoise aaNoise) {
    this(schedules, configDir, preparer, aaNoise, Clock.systemUTC());
  }

  /** No schedules. */
  public static NightlySettings none() {
    return new NightlySettings(List.of(), Path.of("").toAbsolutePath(), UnaryOperator.identity(), AaNoise.NONE);
  }
}
