package dev.abfleet.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * Runs {@code abfleet ARGS} in this JVM ({@link Main#run}) with what it prints captured: its
 * stdout (reports), and its stderr (picocli's errors and the commands' progress, in that order).
 * Not for tests that run in parallel: System.out and System.err are the process's.
 */
public final class MainRun {
  private MainRun() {}

  /** One command's exit code, stdout and stderr. */
  public record Result(int exit, String out, String err) {}

  public static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(progress, true, StandardCharsets.UTF_8));
    int exit;
    try {
      exit = Main.run(new PrintWriter(err, true), args);
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
    return new Result(exit, out.toString(StandardCharsets.UTF_8), err + progress.toString(StandardCharsets.UTF_8));
  }
}
