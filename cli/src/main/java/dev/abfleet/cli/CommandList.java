package dev.abfleet.cli;

import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The list of subcommands in a command's help, each with the whole first sentence of its
 * description. Picocli shows a description's first line, which our descriptions (wrapped in the
 * source at 100 columns) end mid-sentence.
 */
final class CommandList {
  private CommandList() {}

  /** Uses this list in the help of {@code cl} and of every command below it. */
  static void install(CommandLine cl) {
    cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, CommandList::render);
    cl.getSubcommands().values().forEach(CommandList::install);
  }

  static String render(Help help) {
    Map<String, Help> subcommands = help.subcommands();
    if (subcommands.isEmpty()) {
      return "";
    }
    int longest = subcommands.values().stream()
        .mapToInt(h -> h.commandNamesText(", ").plainString().length()).max().orElse(0);
    int names = longest + 4;
    int width = help.commandSpec().usageMessage().width();
    TextTable table = TextTable.forColumns(help.colorScheme(),
        new Column(names, 2, Column.Overflow.SPAN), new Column(Math.max(20, width - names), 1, Column.Overflow.WRAP));
    subcommands.values().forEach(h -> table.addRowValues(
        h.commandNamesText(", ").plainString(), firstSentence(h.commandSpec().usageMessage().description())));
    return table.toString();
  }

  /** The description's lines joined, up to the end of its first sentence ("e.g." and "i.e." do not end one). */
  static String firstSentence(String[] description) {
    String text = String.join(" ", description).replaceAll("\\s+", " ").strip();
    for (int i = text.indexOf(". "); i >= 0; i = text.indexOf(". ", i + 1)) {
      String before = text.substring(0, i + 1);
      if (!before.endsWith("e.g.") && !before.endsWith("i.e.") && !before.endsWith("etc.")) {
        return before;
      }
    }
    return text;
  }
}
