package dev.abfleet.cli.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The command lines of README.md's "## Recipes" section: each {@code ### } heading is a recipe,
 * its {@code ```sh} blocks hold the commands, one a line. Comment lines and blank lines are not
 * commands; everything else is kept exactly as written.
 */
final class ReadmeRecipes {
  /** A line that only sets a shell variable ({@code K=...}), which later lines use as {@code $K}. */
  private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=\\S*");
  /** A comment after a command: whitespace, then '#' to the end of the line. */
  private static final Pattern TRAILING_COMMENT = Pattern.compile("\\s+#.*$");

  private ReadmeRecipes() {}

  record Recipe(String title, List<Line> lines) {}

  /** One command line as written; {@code command} is it without a trailing comment. */
  record Line(String written, String command) {
    boolean assignment() {
      return ASSIGNMENT.matcher(command).matches();
    }

    /** Ends in '&': a server the reader leaves running while typing the next lines. */
    boolean background() {
      return command.endsWith("&") && !command.endsWith("&&");
    }

    /** The command without its '&' (run as a process of its own, stopped at the end). */
    String foreground() {
      return background() ? command.substring(0, command.length() - 1).strip() : command;
    }
  }

  static List<Recipe> parse(String readme) {
    List<Recipe> recipes = new ArrayList<>();
    boolean inSection = false;
    boolean inShell = false;
    String title = null;
    List<Line> lines = null;
    for (String raw : readme.split("\n", -1)) {
      String line = raw.strip();
      if (inShell) {
        if (line.startsWith("```")) {
          inShell = false;
        } else if (!line.isEmpty() && !line.startsWith("#")) {
          lines.add(new Line(line, TRAILING_COMMENT.matcher(line).replaceFirst("")));
        }
        continue;
      }
      if (line.startsWith("## ")) {
        inSection = line.equals("## Recipes");
      } else if (inSection && line.startsWith("### ")) {
        title = line.substring(4).strip();
        lines = new ArrayList<>();
        recipes.add(new Recipe(title, lines));
      } else if (inSection && lines != null && line.equals("```sh")) {
        inShell = true;
      }
    }
    return recipes;
  }
}
