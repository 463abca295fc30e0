package dev.abfleet.cli;

import dev.abfleet.worker.link.ControllerTargets;
import io.grpc.ManagedChannel;

/**
 * The --controller option's value: HOST:PORT, or several separated by commas (the nodes of a
 * controller cluster; calls go to one and move to another when it is unavailable). Checked the
 * same way by every command.
 */
public final class ControllerAddress {
  private ControllerAddress() {}

  /** The address(es) as given; a {@link Problem} names the bad entry and the expected form. */
  public static String check(String value) {
    try {
      ControllerTargets.parse(value);
    } catch (IllegalArgumentException e) {
      throw new Problem("--controller " + e.getMessage());
    }
    return value;
  }

  /** A plaintext channel to the controller (any node of the list). */
  public static ManagedChannel channel(String checked) {
    return ControllerTargets.channel(checked).build();
  }
}
