package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the packaged abfleet jar as a separate process, as a user would. */
final class Cli {
  private Cli() {}

  record Result(int exit, String out, String err) {}

  static Path jar() {
    Path jar = Path.of("target", "abfleet.jar").toAbsolutePath();
    assertThat(jar).as("the e2e tests run after 'package' (mvn -Pe2e verify)").exists();
    return jar;
  }

  static List<String> command(String... args) {
    return command(List.of(), args);
  }

  /** The command line with JVM options (such as {@code -Dname=value}) before {@code -jar}. */
  static List<String> command(List<String> jvmOptions, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-jar");
    cmd.add(jar().toString());
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** Starts abfleet with its output going to files in dir (name.out / name.err). */
  static Process start(Path dir, String name, String... args) throws IOException {
    return start(dir, name, List.of(), args);
  }

  /** As above, with JVM options before {@code -jar}. */
  static Process start(Path dir, String name, List<String> jvmOptions, String... args) throws IOException {
    return start(dir, name, jvmOptions, Map.of(), args);
  }

  /** As above, with variables added to the process's environment. */
  static Process start(Path dir, String name, List<String> jvmOptions, Map<String, String> env,
      String... args) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command(jvmOptions, args));
    pb.environment().putAll(env);
    pb.redirectOutput(dir.resolve(name + ".out").toFile());
    pb.redirectError(dir.resolve(name + ".err").toFile());
    return pb.start();
  }

  static Result run(Path dir, long timeoutMinutes, String... args) throws Exception {
    return run(dir, timeoutMinutes, Map.of(), args);
  }

  /** As above, with variables added to the process's environment. */
  static Result run(Path dir, long timeoutMinutes, Map<String, String> env, String... args) throws Exception {
    Process p = start(dir, "run", List.of(), env, args);
    if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("abfleet " + String.join(" ", args) + " did not finish in " + timeoutMinutes
          + " min; stderr:\n" + read(dir.resolve("run.err")));
    }
    return new Result(p.exitValue(), read(dir.resolve("run.out")), read(dir.resolve("run.err")));
  }

  static String read(Path p) throws IOException {
    return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
  }

  static String abs(File f) {
    return f.getAbsolutePath();
  }
}
