package dev.abfleet.worker.guest;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code setup_error} events /init also writes on the console, after {@link #MARKER}. Where
 * the results channel is itself something /init sets up (VZ's file on the virtio-fs results
 * share), a failure to set it up leaves the console as the only report of why the harness never
 * ran; the driver hands these lines on as the boot's results.
 */
public final class ConsoleSetupErrors {

  /** What /init writes on the console before each event. */
  public static final String MARKER = "abfleet: setup failed: ";

  private static final String EVENT = "{\"event\":\"setup_error\"";

  private ConsoleSetupErrors() {}

  /**
   * The events in {@code console}, in order, each from its opening brace to the end of its line
   * (carriage returns dropped); empty when there are none. Pure: no check that the JSON is whole,
   * {@link GuestProtocol#parse(List)} does that.
   */
  public static List<String> lines(String console) {
    List<String> events = new ArrayList<>();
    if (console == null) {
      return events;
    }
    for (String raw : console.split("\n", -1)) {
      String line = raw.replace("\r", "");
      int marker = line.indexOf(MARKER + EVENT);
      if (marker >= 0) {
        events.add(line.substring(marker + MARKER.length()).strip());
      }
    }
    return events;
  }
}
