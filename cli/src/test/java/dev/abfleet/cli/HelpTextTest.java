package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command's --help renders without picocli warnings. Picocli writes its warnings to the
 * stderr the JVM started with, so the help runs in a fresh JVM (see {@link #main}).
 */
class HelpTextTest {
  @TempDir Path dir;

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void everyCommandsHelpRendersWithoutPicocliWarnings() throws Exception {
    TestJvm.Result r = TestJvm.run(dir, "help", 110, HelpTextTest.class);
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().lines().filter(l -> l.startsWith("helped: ")).count())
        .as("commands helped").isEqualTo(commandPaths().size()).isGreaterThan(10);
    assertThat(r.err()).doesNotContain("WARN");
  }

  /** Every command and subcommand, as the words typed after "abfleet". */
  static List<List<String>> commandPaths() {
    List<List<String>> out = new ArrayList<>();
    collect(new CommandLine(new Main()), new ArrayList<>(), out);
    return out;
  }

  private static void collect(CommandLine cl, List<String> path, List<List<String>> out) {
    out.add(List.copyOf(path));
    cl.getSubcommands().forEach((name, sub) -> {
      if (!name.equals("help") && sub.getCommandSpec().name().equals(name)) {
        List<String> p = new ArrayList<>(path);
        p.add(name);
        collect(sub, p, out);
      }
    });
  }

  /** Prints the help of every command; each is reported on stdout as "helped: PATH". */
  public static void main(String[] args) {
    for (List<String> path : commandPaths()) {
      List<String> argv = new ArrayList<>(path);
      argv.add("--help");
      StringWriter err = new StringWriter();
      int code = Main.run(new PrintWriter(err, true), argv.toArray(String[]::new));
      if (code != 0 || !err.toString().isEmpty()) {
        System.err.println("abfleet " + String.join(" ", argv) + ": exit " + code + ", " + err);
        System.exit(1);
      }
      System.out.println("helped: " + String.join(" ", path));
    }
    System.exit(0);
  }
}
