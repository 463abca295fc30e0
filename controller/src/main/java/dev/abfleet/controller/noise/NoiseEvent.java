package dev.abfleet.controller.noise;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.stats.noise.NoiseRecord;

/** What the {@link NoiseLedger} records in the journal. */
public sealed interface NoiseEvent extends CborSerializable {

  /**
   * Noise measured on a host class was merged into its record.
   *
   * @param measured what was merged (one writer's A/A experiments), not the merged record: replaying
   *     the events in order merges them again ({@link NoiseRecord#merge})
   */
  record NoiseMerged(NoiseRecord measured) implements NoiseEvent {}
}
