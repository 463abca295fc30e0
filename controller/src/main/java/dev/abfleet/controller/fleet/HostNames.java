package dev.abfleet.controller.fleet;

import java.util.Optional;
import java.util.regex.Pattern;

/** What a host id may look like: what hostnames and fleet.yaml ids use, nothing a shell cares about. */
public final class HostNames {
  private HostNames() {}

  private static final Pattern HOST_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");

  /**
   * The problem with {@code hostId}, naming the value and the fix; empty when it is a valid id.
   *
   * @param what where the value came from, e.g. "host_id" or "selector.hosts[2]"
   */
  public static Optional<String> check(String what, String hostId) {
    if (hostId == null || hostId.isEmpty()) {
      return Optional.of(what + ": missing; pass a host id as `abfleet hosts list` shows it");
    }
    if (!HOST_ID.matcher(hostId).matches()) {
      // Control characters shown as '?': the message stays one line whatever was sent.
      String shown = hostId.replaceAll("\\p{Cntrl}", "?");
      return Optional.of(what + ": '" + (shown.length() <= 80 ? shown : shown.substring(0, 77) + "...")
          + "' is not a valid host id; use 1 to 128 of"
          + " [A-Za-z0-9_.:-], starting with a letter or digit");
    }
    return Optional.empty();
  }
}
