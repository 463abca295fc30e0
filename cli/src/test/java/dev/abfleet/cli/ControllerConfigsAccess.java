package dev.abfleet.cli;

import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/** What {@link ControllerConfigs} gives a controller, for tests in other packages. */
public final class ControllerConfigsAccess {
  private ControllerConfigsAccess() {}

  /** The nightly settings {@code abfleet controller} makes of {@code config}. */
  public static dev.abfleet.controller.nightly.NightlySettings nightly(dev.abfleet.config.FleetConfig config,
      Path home) {
    return ControllerConfigs.nightly(config, home, home);
  }

  /** The preparer of nightly runs' specs, caching under {@code home}. */
  public static UnaryOperator<ExperimentSpec> nightlyPreparer(Path home) {
    return ControllerConfigs.nightly(FleetConfigLoader.embeddedDefault(), home, home).preparer();
  }
}
