package dev.abfleet.cli;

import java.util.regex.Pattern;

/** The --controller option's value: HOST:PORT, checked the same way by every command. */
public final class ControllerAddress {
  private static final Pattern TARGET = Pattern.compile("(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9_.-]+):(\\d{1,5})");

  private ControllerAddress() {}

  /** The address as given; a {@link Problem} names the value and the expected form. */
  public static String check(String value) {
    var m = TARGET.matcher(value);
    if (!m.matches() || Integer.parseInt(m.group(2)) < 1 || Integer.parseInt(m.group(2)) > 65535) {
      throw new Problem("--controller '" + value + "': expected HOST:PORT with a port 1 to"
          + " 65535, e.g. 127.0.0.1:7070");
    }
    return value;
  }
}
