package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CommandListTest {
  @Test
  void firstSentenceJoinsTheLinesAndStopsAtTheFirstFullStopThatIsNotAnAbbreviation() {
    assertThat(CommandList.firstSentence(new String[] {"Boot a baseline and a candidate,", "pair after pair. Then more."}))
        .isEqualTo("Boot a baseline and a candidate, pair after pair.");
    assertThat(CommandList.firstSentence(new String[] {"Print a report, e.g. --format html. More."}))
        .isEqualTo("Print a report, e.g. --format html.");
    assertThat(CommandList.firstSentence(new String[] {"No full stop at all"})).isEqualTo("No full stop at all");
  }

  @Test
  void everyCommandInTheTopLevelHelpEndsItsSentence() {
    CommandLine cl = new CommandLine(new Main());
    CommandList.install(cl);
    String help = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
    String list = help.substring(help.indexOf("Commands:"));

    // Each entry starts at column 2 with its name; its text may wrap over several lines.
    List<String> entries = List.of(list.substring("Commands:".length()).strip().split("\n(?=  \\S)"));
    assertThat(entries).hasSizeGreaterThan(10).allSatisfy(e -> assertThat(e.strip()).as(e).endsWith("."));
    assertThat(list).contains("ab ").contains("pair after pair").doesNotContain("pair after pair,\n");
  }

  @Test
  void subcommandListsUseTheWholeSentenceToo() {
    CommandLine cl = new CommandLine(new Main());
    CommandList.install(cl);
    String help = cl.getSubcommands().get("experiments").getUsageMessage(CommandLine.Help.Ansi.OFF);

    assertThat(help).contains("Commands:");
    String list = help.substring(help.indexOf("Commands:") + "Commands:".length()).strip();
    assertThat(List.of(list.split("\n(?=  \\S)"))).allSatisfy(e -> assertThat(e.strip()).as(e).endsWith("."));
  }
}
