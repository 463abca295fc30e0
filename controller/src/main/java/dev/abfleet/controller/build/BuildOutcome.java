package dev.abfleet.controller.build;

import dev.abfleet.controller.CborSerializable;

/**
 * How a worker says an attempt ended: built (kernel set) or failed (failure set). One record
 * rather than a sealed pair, so that it crosses nodes without polymorphic type information.
 */
public record BuildOutcome(BuiltKernel kernel, BuildFailure failure) implements CborSerializable {

  public static BuildOutcome built(BuiltKernel kernel) {
    return new BuildOutcome(kernel, null);
  }

  public static BuildOutcome failed(BuildFailure failure) {
    return new BuildOutcome(null, failure);
  }
}
