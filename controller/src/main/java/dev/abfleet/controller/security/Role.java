package dev.abfleet.controller.security;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What an API token may do. Hierarchical: each role includes the ones before it.
 * {@code read}: list, show, watch, hosts, artifact status and fetch; {@code submit}: also submit,
 * upload artifacts and cancel its own experiments; {@code operator}: also drain, undrain and
 * release hosts, cancel any experiment and manage tokens.
 */
public enum Role {
  READ,
  SUBMIT,
  OPERATOR;

  /** True when this role may do what {@code needed} may. */
  public boolean covers(Role needed) {
    return compareTo(needed) >= 0;
  }

  /** The name used on the command line, in fleet.yaml and on the wire. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The role named {@code value}.
   *
   * @throws IllegalArgumentException naming the value and the roles there are
   */
  public static Role of(String value) {
    for (Role r : values()) {
      if (r.wire().equals(value)) {
        return r;
      }
    }
    throw new IllegalArgumentException("role '" + value + "': expected one of "
        + Arrays.stream(values()).map(Role::wire).collect(Collectors.joining(", ")));
  }
}
