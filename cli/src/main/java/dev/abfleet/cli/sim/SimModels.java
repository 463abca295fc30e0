package dev.abfleet.cli.sim;

import dev.abfleet.config.Problem;
import dev.abfleet.worker.sim.SimModel;
import dev.abfleet.worker.sim.SimModelYaml;
import java.nio.file.Path;

/** The sim model a command asked for: a YAML file or the defaults, with command-line overrides. */
public final class SimModels {
  private SimModels() {}

  /**
   * @param file YAML model ({@code --sim-model}); null = {@link SimModel#defaults()}
   * @param timeScale {@code --time-scale}; null = the model's
   * @throws Problem naming the file, the key and the fix
   */
  public static SimModel load(Path file, Double timeScale) {
    try {
      SimModel model = file == null ? SimModel.defaults() : SimModelYaml.load(file);
      return timeScale == null ? model : model.withTimeScale(timeScale);
    } catch (IllegalArgumentException e) {
      throw new Problem((file == null ? "" : "--sim-model ") + e.getMessage());
    }
  }

  /** One line for banners: what is simulated and how fast. */
  public static String describe(SimModel model) {
    return "model seed " + model.seed() + ", time scale " + model.timeScale()
        + (model.timeScale() == 1.0 ? " (real time)" : "") + ", metrics " + String.join(", ", model.metricNames());
  }
}
