package dev.abfleet.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The one line for a command line that does not parse: what was wrong, the closest real command
 * or option when one is close ("did you mean"), and the help of the command the mistake was
 * made in, named by its full path ({@code abfleet experiments --help}).
 */
final class UsageErrors {
  private static final int MAX_SUGGESTIONS = 3;

  private UsageErrors() {}

  /** The message for {@code ex}, without the leading "abfleet: ". */
  static String message(ParameterException ex) {
    CommandLine at = ex.getCommandLine();
    String path = at.getCommandSpec().qualifiedName();
    if (ex instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
      String arg = unmatched.getUnmatched().get(0);
      if (arg.startsWith("-")) {
        return unknownOption(at.getCommandSpec(), arg);
      }
      if (!at.getSubcommands().isEmpty()) {
        return unknownCommand(at, arg);
      }
    }
    return ex.getMessage() + " (see: " + path + " --help)";
  }

  private static String unknownCommand(CommandLine at, String typed) {
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, CommandLine> sub : at.getSubcommands().entrySet()) {
      if (!sub.getValue().getCommandSpec().usageMessage().hidden()) {
        names.add(sub.getKey());
      }
    }
    String path = at.getCommandSpec().qualifiedName();
    // Named as typed after "abfleet": the root's 'experimnts', a group's 'experiments lst'.
    String prefix = path.contains(" ") ? path.substring(path.indexOf(' ') + 1) + " " : "";
    List<String> close = closest(typed, names).stream().map(n -> prefix + n).toList();
    return "unknown command '" + prefix + typed + "'" + didYouMean(close)
        + " (" + path + " --help lists commands)";
  }

  private static String unknownOption(CommandSpec spec, String arg) {
    int eq = arg.indexOf('=');
    String typed = eq < 0 ? arg : arg.substring(0, eq);
    List<String> names = new ArrayList<>();
    for (OptionSpec option : spec.options()) {
      if (!option.hidden()) {
        names.addAll(List.of(option.names()));
      }
    }
    String path = spec.qualifiedName();
    return "unknown option '" + typed + "' for " + path + didYouMean(closest(typed, names))
        + " (" + path + " --help lists options)";
  }

  private static String didYouMean(List<String> close) {
    if (close.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder("; did you mean ");
    for (int i = 0; i < close.size(); i++) {
      if (i > 0) {
        sb.append(i == close.size() - 1 ? " or " : ", ");
      }
      sb.append('\'').append(close.get(i)).append('\'');
    }
    return sb.append('?').toString();
  }

  /**
   * The candidates within a few edits of {@code typed} (more for longer words; none for one or
   * two letters, where everything is close), or that it begins, nearest first, at most three.
   */
  static List<String> closest(String typed, List<String> candidates) {
    String word = stripDashes(typed);
    int allowed = word.length() <= 2 ? 0 : word.length() <= 5 ? 1 : word.length() <= 10 ? 2 : 3;
    record Scored(String name, int distance) {}
    List<Scored> scored = new ArrayList<>();
    for (String c : candidates) {
      int d = distance(typed, c);
      boolean begun = word.length() >= 3 && c.startsWith(typed);
      if ((d <= allowed && d > 0) || begun) {
        scored.add(new Scored(c, d));
      }
    }
    scored.sort(Comparator.comparingInt(Scored::distance).thenComparing(Scored::name));
    return scored.stream().limit(MAX_SUGGESTIONS).map(Scored::name).toList();
  }

  private static String stripDashes(String s) {
    int i = 0;
    while (i < s.length() && s.charAt(i) == '-') {
      i++;
    }
    return s.substring(i);
  }

  /** Edits (insert, delete, replace, swap of neighbours) that turn {@code a} into {@code b}. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
