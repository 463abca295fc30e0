package dev.abfleet.controller.build;

import dev.abfleet.controller.fleet.Fence;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.build.BuildEvent.AttemptEnded;
import dev.abfleet.controller.build.BuildEvent.AttemptStarted;
import dev.abfleet.controller.build.BuildEvent.BuildFailed;
import dev.abfleet.controller.build.BuildEvent.BuildSubmitted;
import dev.abfleet.controller.build.BuildEvent.BuildSucceeded;
import dev.abfleet.controller.plan.BuildInputs;
import java.util.ArrayList;
import java.util.List;

/**
 * A build as its events made it.
 *
 * @param attempt the attempt running now; null = none
 * @param attempts attempts started so far
 * @param troubledHosts hosts where an attempt ended without a verdict (lease lost, INFRA), oldest
 *     first: a retry prefers another host
 * @param lastRetry why the last attempt that ended without a verdict ended; empty = none did
 * @param kernel set when BUILT
 * @param builtOn the host that built it; empty until BUILT
 * @param failure set when FAILED
 */
public record BuildState(String buildId, Status status, BuildInputs inputs, Attempt attempt,
    int attempts, List<String> troubledHosts, String lastRetry, BuiltKernel kernel,
    String builtOn, BuildFailure failure) implements CborSerializable {

  /** NEW: nothing submitted under this id. */
  public enum Status { NEW, QUEUED, BUILDING, BUILT, FAILED }

  public record Attempt(String attemptId, String hostId, long epoch) {}

  /** Attempts a build gets before it fails as INFRA (lost leases and INFRA failures count). */
  public static final int MAX_ATTEMPTS = 4;

  public BuildState {
    troubledHosts = troubledHosts == null ? List.of() : List.copyOf(troubledHosts);
    lastRetry = lastRetry == null ? "" : lastRetry;
    builtOn = builtOn == null ? "" : builtOn;
  }

  public static BuildState empty(String buildId) {
    return new BuildState(buildId, Status.NEW, null, null, 0, List.of(), "", null, "", null);
  }

  public boolean done() {
    return status == Status.BUILT || status == Status.FAILED;
  }

  /** True when a report of {@code attemptId} from {@code hostId} under {@code epoch} is the running attempt's. */
  public boolean isCurrent(String attemptId, String hostId, long epoch) {
    return attempt != null && attempt.attemptId().equals(attemptId) && attempt.hostId().equals(hostId)
        && Fence.admits(attempt.epoch(), epoch);
  }

  /** The id of the next attempt: unique per build and attempt number. */
  public String nextAttemptId() {
    return buildId.substring(0, Math.min(16, buildId.length())) + "-a" + (attempts + 1);
  }

  /** True when the host saw an attempt end badly and another host could take the build. */
  public boolean avoids(String hostId, boolean otherHostsMatch) {
    return otherHostsMatch && troubledHosts.contains(hostId);
  }

  /**
   * What to persist when the running attempt ends without a verdict on the inputs: another
   * attempt, or, once {@link #MAX_ATTEMPTS} are spent, an INFRA failure.
   */
  public BuildEvent retryOrFail(String reason, long nowMs) {
    return retryOrFail(reason, nowMs, true);
  }

  /** As {@link #retryOrFail(String, long)}; {@code hostAtFault} false = a retry may use the same host. */
  public BuildEvent retryOrFail(String reason, long nowMs, boolean hostAtFault) {
    if (attempts >= MAX_ATTEMPTS) {
      return new BuildFailed(attempt.attemptId(), attempt.hostId(), BuildFailure.infra("gave up after "
          + attempts + " attempts; the last: " + reason + " (check the builders' logs, then submit again)"), nowMs);
    }
    return new AttemptEnded(attempt.attemptId(), attempt.hostId(), reason, hostAtFault);
  }

  /** What to persist for a worker's report of the running attempt. */
  public BuildEvent afterReport(BuildOutcome outcome, long nowMs) {
    if (outcome.kernel() != null) {
      return new BuildSucceeded(attempt.attemptId(), attempt.hostId(), outcome.kernel(), nowMs);
    }
    BuildFailure f = outcome.failure();
    if (f.kind().usersInput()) {
      return new BuildFailed(attempt.attemptId(), attempt.hostId(), f, nowMs);
    }
    return retryOrFail("INFRA on host " + attempt.hostId() + ": " + f.firstError(), nowMs);
  }

  public BuildState apply(BuildEvent event) {
    if (event instanceof BuildSubmitted e) {
      return new BuildState(buildId, Status.QUEUED, e.inputs(), null, 0, List.of(), "", null, "", null);
    }
    if (event instanceof AttemptStarted e) {
      return new BuildState(buildId, Status.BUILDING, inputs, new Attempt(e.attemptId(), e.hostId(), e.epoch()),
          attempts + 1, troubledHosts, lastRetry, null, "", null);
    }
    if (event instanceof AttemptEnded e) {
      List<String> troubled = new ArrayList<>(troubledHosts);
      if (e.hostAtFault()) {
        troubled.remove(e.hostId());
        troubled.add(e.hostId());
      }
      return new BuildState(buildId, Status.QUEUED, inputs, null, attempts, troubled, e.reason(), null, "", null);
    }
    if (event instanceof BuildSucceeded e) {
      return new BuildState(buildId, Status.BUILT, inputs, null, attempts, troubledHosts, lastRetry, e.kernel(),
          e.hostId(), null);
    }
    BuildFailed e = (BuildFailed) event;
    return new BuildState(buildId, Status.FAILED, inputs, null, attempts, troubledHosts, lastRetry, null, "",
        e.failure());
  }
}
