package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A mistyped command or option ends in one line that names it, the closest real ones and the
 * help of the command it was typed in; exit 2 like all bad input.
 */
class UsageErrorsTest {
  private final StringWriter err = new StringWriter();

  private String fails(String... args) {
    assertThat(Main.run(new PrintWriter(err, true), args)).isEqualTo(ExitCodes.BAD_INPUT);
    String text = err.toString().strip();
    assertThat(text.lines().count()).as("one line: " + text).isEqualTo(1);
    return text;
  }

  @Test
  void suggestsTheClosestTopLevelCommand() {
    assertThat(fails("experimnts", "list")).isEqualTo("abfleet: unknown command 'experimnts'; did you"
        + " mean 'experiments'? (abfleet --help lists commands)");
  }

  @Test
  void suggestsThePluralOfASingularCommand() {
    assertThat(fails("experiment", "list")).isEqualTo("abfleet: unknown command 'experiment'; did you"
        + " mean 'experiments'? (abfleet --help lists commands)");
  }

  @Test
  void suggestsTheClosestSubcommandWithItsGroup() {
    assertThat(fails("experiments", "lst")).isEqualTo("abfleet: unknown command 'experiments lst';"
        + " did you mean 'experiments list'? (abfleet experiments --help lists commands)");
  }

  @Test
  void suggestsTheClosestOption() {
    assertThat(fails("ab", "--pair", "3")).isEqualTo("abfleet: unknown option '--pair' for abfleet ab;"
        + " did you mean '--pairs'? (abfleet ab --help lists options)");
  }

  @Test
  void suggestsTheClosestOptionOfANestedCommandGivenWithItsValue() {
    assertThat(fails("experiments", "list", "--stat=done")).isEqualTo("abfleet: unknown option"
        + " '--stat' for abfleet experiments list; did you mean '--state'? (abfleet experiments list"
        + " --help lists options)");
  }

  @Test
  void guessesNothingForAWordFarFromEveryCommand() {
    assertThat(fails("xyz")).isEqualTo("abfleet: unknown command 'xyz' (abfleet --help lists commands)");
  }

  @Test
  void namesTheFullPathOfTheCommandWhoseParameterIsMissing() {
    assertThat(fails("experiments", "watch")).contains("'ID'")
        .endsWith("(see: abfleet experiments watch --help)");
  }

  @Test
  void countsSwapsAndEditsAsOneEach() {
    // Optimal string alignment distance; kitten -> sitting is the textbook 3.
    assertThat(UsageErrors.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(UsageErrors.distance("hsots", "hosts")).isEqualTo(1);
    assertThat(UsageErrors.distance("lst", "list")).isEqualTo(1);
    assertThat(UsageErrors.distance("", "ab")).isEqualTo(2);
  }

  @Test
  void offersAtMostThreeNearestFirstAndNoneForTwoLetters() {
    List<String> names = List.of("hosts", "host", "hots", "ghosts", "posts", "list");
    assertThat(UsageErrors.closest("hostsx", names)).containsExactly("hosts", "ghosts", "host");
    assertThat(UsageErrors.closest("ab", List.of("ac", "abc"))).isEmpty();
    assertThat(UsageErrors.closest("calib", List.of("calibrate", "build"))).containsExactly("calibrate");
  }
}
