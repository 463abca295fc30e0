package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.config.Problem;
import dev.abfleet.controller.dashboard.Dashboard;
import dev.abfleet.worker.WorkerSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every hint that tells the user to run an abfleet command names a real one: the CLI's messages
 * and option descriptions, the dashboard's pages, the controller's, worker's and config's error
 * messages, checked against the command tree itself.
 */
class CommandHintsTest {
  private final CommandLine root = new CommandLine(new Main());

  private List<CommandHints.Hint> everyHint() throws IOException {
    List<CommandHints.Hint> hints = new ArrayList<>(CommandHints.inClassesOf(Main.class, "dev/abfleet/cli"));
    // The controller's pages and error messages, the worker's and the config's errors: they name
    // commands to run as much as the CLI does.
    hints.addAll(CommandHints.inClassesOf(Dashboard.class, "dev/abfleet/controller"));
    hints.addAll(CommandHints.inClassesOf(WorkerSettings.class, "dev/abfleet/worker"));
    hints.addAll(CommandHints.inClassesOf(Problem.class, "dev/abfleet/config"));
    return hints;
  }

  @Test
  void everyHintNamesARealCommandAndItsRealOptions() throws IOException {
    List<CommandHints.Hint> hints = everyHint();
    List<String> problems = new ArrayList<>();
    for (CommandHints.Hint h : hints) {
      CommandHints.problems(root, h.text()).forEach(p -> problems.add(h.source() + ": " + p));
    }
    assertThat(problems).as("hints naming a command or option that does not exist (fix the hint;"
        + " if it is prose, add its word to CommandHints.PROSE)").isEmpty();
  }

  /** The scan sees the hints it is meant to check; an empty scan would pass for nothing. */
  @Test
  void findsTheHintsOfTheCliAndTheDashboard() throws IOException {
    List<String> texts = everyHint().stream().map(CommandHints.Hint::text).toList();
    assertThat(texts).hasSizeGreaterThan(40)
        .contains("abfleet experiments list", "abfleet certs issue --worker HOST_ID",
            "abfleet tokens create --role read");
  }

  @Test
  void reportsAnUnknownCommand() {
    assertThat(CommandHints.problems(root, "abfleet experimnts list"))
        .containsExactly("'abfleet experimnts list': abfleet has no command 'experimnts' (its"
            + " commands: " + String.join(", ", root.getSubcommands().keySet()) + ")");
  }

  @Test
  void reportsAnUnknownSubcommand() {
    assertThat(CommandHints.problems(root, "abfleet tokens make --role read")).singleElement()
        .asString().contains("abfleet tokens has no command 'make'");
  }

  @Test
  void reportsAnUnknownAlternative() {
    assertThat(CommandHints.problems(root, "abfleet ab/nighty pick it")).singleElement()
        .asString().contains("abfleet has no command 'nighty'");
  }

  @Test
  void reportsAnOptionOfAnotherCommand() {
    assertThat(CommandHints.problems(root, "abfleet experiments list --pairs 3 --state done"))
        .containsExactly("'abfleet experiments list --pairs 3 --state done': abfleet experiments"
            + " list has no option --pairs");
  }

  @Test
  void acceptsCommandsWithOptionsValuesAndPositionals() {
    assertThat(CommandHints.problems(root, "abfleet certs issue --worker HOST_ID")).isEmpty();
    assertThat(CommandHints.problems(root, "abfleet history metadata_stat --controller HOST:PORT")).isEmpty();
    assertThat(CommandHints.problems(root, "abfleet ab interrupted")).isEmpty();
    assertThat(CommandHints.problems(root, "abfleet ab/nightly/bisect pick it")).isEmpty();
    assertThat(CommandHints.problems(root, "abfleet CA")).isEmpty();
    assertThat(CommandHints.problems(root, "abfleet bench fleet: 4 workers --not-an-option")).isEmpty();
  }

  @Test
  void findsMentionsUpToThePunctuationThatEndsThem() {
    assertThat(CommandHints.mentions("run `abfleet calibrate --real` first (see: abfleet plan --help);"
        + " dev/abfleet/cli and abfleet-minimal are no hints"))
        .containsExactly("abfleet calibrate --real", "abfleet plan --help");
  }

  @Test
  void readsTheStringsOfAClassFile() throws IOException {
    try (var in = CommandHintsTest.class.getResourceAsStream("CommandHintsTest.class")) {
      assertThat(CommandHints.utf8Constants(in)).contains("abfleet tokens make --role read",
          "reportsAnUnknownSubcommand");
    }
  }
}
