package dev.abfleet.controller.bisect;

import dev.abfleet.controller.CborSerializable;

/** What a bisect records in the journal; {@link BisectState#apply} replays them. */
public sealed interface BisectEvent extends CborSerializable {

  /** The bisect was accepted, at {@code atMs} (Unix epoch ms). */
  record BisectStarted(String bisectId, BisectRequest request, long atMs) implements BisectEvent {}

  /** The experiment comparing {@code good} with {@code probe} is (about to be) submitted. */
  record ProbeSubmitted(int good, int probe, String experimentId) implements BisectEvent {}

  /** The probe in flight ended with {@code result}. */
  record ProbeFinished(ProbeResult result) implements BisectEvent {}

  /** The bisect cannot go on (a probe's experiment failed or was refused). */
  record BisectFailed(String message) implements BisectEvent {}

  /** A client cancelled the bisect. */
  record BisectCancelled(String reason) implements BisectEvent {}
}
