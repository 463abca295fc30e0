package dev.abfleet.controller.build;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.plan.BuildInputs;

/** What a build entity persists; class names are journal manifests: never rename. */
public sealed interface BuildEvent extends CborSerializable {

  record BuildSubmitted(String buildId, BuildInputs inputs, long atMs) implements BuildEvent {}

  /** A host was leased for the build under {@code epoch}; the attempt runs there. */
  record AttemptStarted(String attemptId, String hostId, long epoch, long atMs) implements BuildEvent {}

  /**
   * The attempt ended without a verdict on the inputs (lease lost, INFRA, a controller restart);
   * the build waits again.
   *
   * @param hostAtFault the host lost the lease or failed (a retry prefers another host); false =
   *     the controller restarted under it
   */
  record AttemptEnded(String attemptId, String hostId, String reason, boolean hostAtFault) implements BuildEvent {
    public AttemptEnded(String attemptId, String hostId, String reason) {
      this(attemptId, hostId, reason, true);
    }
  }

  record BuildSucceeded(String attemptId, String hostId, BuiltKernel kernel, long atMs) implements BuildEvent {}

  record BuildFailed(String attemptId, String hostId, BuildFailure failure, long atMs) implements BuildEvent {}
}
