package dev.abfleet.controller.experiment;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What an experiment id may look like. Ids become entity and persistence ids, journal rows,
 * actor names and file names in reports, and users paste them into shells: no path separators,
 * no whitespace, nothing a shell cares about.
 */
public final class ExperimentIds {
  private ExperimentIds() {}

  static final int MAX_LENGTH = 128;
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0," + (MAX_LENGTH - 1) + "}");

  /**
   * The problem with {@code id}, naming the value and the fix; empty when it is a valid id.
   *
   * @param what where the value came from, e.g. "experiment_id" or "ID"
   */
  public static Optional<String> check(String what, String id) {
    if (id == null || id.isEmpty()) {
      return Optional.of(what + ": missing; pass the id SubmitExperiment returned (abfleet experiments list"
          + " shows them)");
    }
    if (!ID.matcher(id).matches()) {
      return Optional.of(what + ": '" + shown(id) + "' is not a valid experiment id; use 1 to " + MAX_LENGTH
          + " of [A-Za-z0-9_.:-], starting with a letter or digit, e.g. e-1a2b3c4d");
    }
    return Optional.empty();
  }

  /** The id as it can be quoted in one line: control characters as '?', at most 80 characters. */
  private static String shown(String id) {
    String s = id.replaceAll("\\p{Cntrl}", "?");
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}
