package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.worker.link.ChannelSecurity;
import dev.abfleet.worker.link.ControllerTargets;
import io.grpc.ManagedChannel;

/**
 * The --controller option's value: HOST:PORT, or several separated by commas (the nodes of a
 * controller cluster; calls go to one and move to another when it is unavailable). Checked the
 * same way by every command, which also states here how its channels are secured
 * ({@link ClientAuthOptions}); {@link #channel} is the one place that builds them.
 */
public final class ControllerAddress {
  // The running command's options set this when it checks its address. Main.run puts it back to
  // the default before and after every command, so neither a later command nor code that uses
  // these classes outside a command (tests, an embedding tool) inherits a command's CA or token.
  private static volatile ChannelSecurity security = ChannelSecurity.DEFAULT;

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

  /**
   * As {@link #check(String)}, and channels this command opens are secured as {@code auth} says.
   */
  public static String check(String value, ClientAuthOptions auth) {
    String checked = check(value);
    security = auth.security();
    return checked;
  }

  /** Back to plaintext-on-loopback with no token: called around each command. */
  static void resetSecurity() {
    security = ChannelSecurity.DEFAULT;
  }

  /** The security channels of the running command get (for tests). */
  static ChannelSecurity security() {
    return security;
  }

  /** Closes a client's channel, waiting a few seconds for calls in flight to end. */
  public static void close(ManagedChannel channel) {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A channel to the controller (any node of the list), secured as the command's options say. */
  public static ManagedChannel channel(String checked) {
    return channel(checked, security);
  }

  /** A channel to the controller secured as {@code with} says (the embedded fleet: plaintext). */
  public static ManagedChannel channel(String checked, ChannelSecurity with) {
    try {
      return ControllerTargets.channel(checked, with).build();
    } catch (IllegalArgumentException e) {
      throw new Problem(e.getMessage());
    }
  }
}
