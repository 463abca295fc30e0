package dev.abfleet.cli.noise;

import dev.abfleet.report.noise.NoiseRecord;
import dev.abfleet.controller.noise.NoiseMeasure;

import dev.abfleet.controller.nightly.AaNoise;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * What an A/A schedule's run measured, merged into its host classes' noise records under the
 * controller's home, as {@code abfleet calibrate --real} does; {@code abfleet ab} quotes them.
 */
public final class NightlyNoise implements AaNoise {
  private final NoiseStore store;
  private final PrintStream log;

  public NightlyNoise(Path home, PrintStream log) {
    this.store = NoiseStore.inHome(home);
    this.log = log;
  }

  @Override
  public void record(String schedule, Experiment done, Instant due) {
    for (NoiseRecord r : NoiseMeasure.of(done, due.atZone(ZoneOffset.UTC).toLocalDate())) {
      NoiseRecord merged = store.merge(r);
      log.println("abfleet: " + schedule + ": A/A noise of host class " + r.shownClass() + " recorded in "
          + store.file(r.hostClass()) + " (" + merged.falsePositives() + "/" + merged.experiments()
          + " experiments with a false positive)");
    }
  }
}
