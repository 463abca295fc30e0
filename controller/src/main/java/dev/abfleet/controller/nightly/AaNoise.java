package dev.abfleet.controller.nightly;

import dev.abfleet.proto.fleet.v1.Experiment;
import java.time.Instant;

/**
 * Records the noise an A/A schedule's run measured (as {@code abfleet calibrate --real} does),
 * given by the process that starts the controller. Called once per finished A/A run, off the
 * actor; a run whose record is lost to a crash in between is not recorded again.
 */
@FunctionalInterface
public interface AaNoise {
  /** Does nothing. */
  AaNoise NONE = (schedule, done, due) -> { };

  void record(String schedule, Experiment done, Instant due);

  /** This, then {@code next} (also when this one fails: each keeps its own copy). */
  default AaNoise andThen(AaNoise next) {
    return (schedule, done, due) -> {
      try {
        record(schedule, done, due);
      } finally {
        next.record(schedule, done, due);
      }
    };
  }
}
