package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.HostileInputs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs abfleet in-process on hostile input and checks what the user sees: exit code 2 and
 * exactly one line that names the problem and the fix, with no stack trace or exception name.
 */
public final class HostileRun {
  private HostileRun() {}

  /** What a run printed on stderr and how it exited. */
  public record Outcome(int code, String err) {}

  /**
   * A bad-input case of a file-reading command.
   *
   * @param name the display name, what the input is
   * @param input writes the input into a directory and returns its path
   * @param problem words the message must contain that name the problem
   * @param fix words the message must contain that name the fix
   */
  public record FileCase(String name, Input input, String problem, String fix) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Makes an input file (or directory, or path) in {@code dir}. */
  @FunctionalInterface
  public interface Input {
    Path write(Path dir) throws IOException;
  }

  public static Input text(String text) {
    return dir -> Files.writeString(dir.resolve("input.yaml"), text, StandardCharsets.UTF_8);
  }

  public static Input bytes(byte[] bytes) {
    return dir -> Files.write(dir.resolve("input.yaml"), bytes);
  }

  public static Outcome main(String... args) {
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(err, true), args);
    return new Outcome(code, err.toString());
  }

  /** Exit code 2 and one line {@code abfleet: ...} containing {@code problem} and {@code fix}. */
  public static String assertOneClearLine(Outcome o, String problem, String fix) {
    assertThat(o.code()).as(o.err()).isEqualTo(ExitCodes.BAD_INPUT);
    String text = o.err().strip();
    assertThat(text.lines().count()).as("one line: " + text).isEqualTo(1);
    assertThat(text).startsWith("abfleet: ").contains(problem).contains(fix);
    assertThat(HostileInputs.leaksInternals(text)).as("no stack trace or exception name: " + text).isFalse();
    return text;
  }
}
