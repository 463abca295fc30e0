package dev.abfleet.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of this module in a fresh JVM with the test class path, for behaviour that
 * only a whole process shows: its exit, what a library prints to the real stderr, file locks
 * held by another process. Output goes to files in a directory (name.out, name.err).
 */
public final class TestJvm {
  private TestJvm() {}

  public record Result(int exit, String out, String err) {}

  public static Process start(Path dir, String name, Class<?> main, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd)
        .redirectOutput(dir.resolve(name + ".out").toFile())
        .redirectError(dir.resolve(name + ".err").toFile())
        .start();
  }

  /** Starts the JVM and waits for it; destroys it and fails after {@code timeoutS}. */
  public static Result run(Path dir, String name, long timeoutS, Class<?> main, String... args)
      throws IOException, InterruptedException {
    Process p = start(dir, name, main, args);
    if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(name + " still running after " + timeoutS + " s; stderr:\n"
          + read(dir, name + ".err"));
    }
    return new Result(p.exitValue(), read(dir, name + ".out"), read(dir, name + ".err"));
  }

  public static String read(Path dir, String file) throws IOException {
    Path p = dir.resolve(file);
    return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
  }
}
