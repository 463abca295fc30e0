package dev.abfleet.cli.e2e;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Runs lines with bash in the repository root, as a reader's terminal would: HOME is
 * {@code home}, variables assigned earlier hold, background lines run until {@link #close}.
 */
final class ReadmeTerminal implements AutoCloseable {
  /** A foreground line's exit code and output. */
  record Ran(int exit, String out, String err) {}

  private final Path root;
  private final Path dir;
  private final Map<String, String> env = new LinkedHashMap<>();
  private final List<String> assignments = new ArrayList<>();
  private final List<Server> servers = new ArrayList<>();
  private int n;

  ReadmeTerminal(Path root, Path dir, Path home) {
    this.root = root;
    this.dir = dir;
    env.putAll(SourceKernels.env());
    env.put("HOME", home.toString());
    // bin/abfleet runs the java on PATH: the one running this test.
    env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
  }

  /** A variable for the lines that follow, as a shell keeps it. */
  void assign(String line) {
    assignments.add(line);
  }

  Ran run(String line) throws Exception {
    String name = String.format("%02d", ++n);
    Process p = builder(line, name).start();
    if (!p.waitFor(40, TimeUnit.MINUTES)) {
      stop(p);
      throw new AssertionError(line + ": did not finish in 40 min; stderr:\n" + Cli.read(dir.resolve(name + ".err")));
    }
    return new Ran(p.exitValue(), Cli.read(dir.resolve(name + ".out")), Cli.read(dir.resolve(name + ".err")));
  }

  Server start(String name, String line) throws Exception {
    Server s = new Server(name, builder(line, name).start());
    servers.add(s);
    return s;
  }

  String serverLogs() throws IOException {
    StringBuilder b = new StringBuilder();
    for (Server s : servers) {
      b.append("\n--- ").append(s.name).append(":\n").append(tail(s.log(), 40));
    }
    return b.toString();
  }

  private ProcessBuilder builder(String line, String name) {
    String script = String.join("\n", assignments) + "\n" + line + "\n";
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(root.toFile());
    pb.environment().remove("ABFLEET_HOME");
    pb.environment().remove("ABFLEET_TOKEN");
    pb.environment().putAll(env);
    pb.redirectOutput(dir.resolve(name + ".out").toFile());
    pb.redirectError(dir.resolve(name + ".err").toFile());
    return pb;
  }

  @Override
  public void close() throws Exception {
    for (Server s : servers) {
      stop(s.process);
    }
  }

  /** bash, bin/abfleet's shell and java: the whole tree, politely first. */
  private static void stop(Process p) throws InterruptedException {
    List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
    tree.forEach(ProcessHandle::destroy);
    p.destroy();
    for (ProcessHandle h : tree) {
      h.onExit().completeOnTimeout(h, 20, TimeUnit.SECONDS).join();
      h.destroyForcibly();
    }
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
  }

  private static String tail(String text, int lines) {
    String[] all = text.split("\n");
    return String.join("\n", Arrays.asList(all).subList(Math.max(0, all.length - lines), all.length));
  }

  /** A background line's process tree, its output in {@code name}.out/.err. */
  final class Server {
    final String name;
    final Process process;

    Server(String name, Process process) {
      this.name = name;
      this.process = process;
    }

    String log() throws IOException {
      return Cli.read(dir.resolve(name + ".err")) + Cli.read(dir.resolve(name + ".out"));
    }

    void awaitPort(int port) throws Exception {
      await("listen on 127.0.0.1:" + port, () -> {
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress("127.0.0.1", port), 500);
          return true;
        } catch (IOException notYet) {
          return false;
        }
      });
    }

    void awaitLog(String text) throws Exception {
      await("log '" + text + "'", () -> log().contains(text));
    }

    private void await(String what, Callable<Boolean> ready) throws Exception {
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new AssertionError(name + " exited (" + process.exitValue() + ") before it would " + what + ":\n"
              + log());
        }
        if (ready.call()) {
          return;
        }
        Thread.sleep(300);
      }
      throw new AssertionError(name + " did not " + what + " within 120 s:\n" + log());
    }
  }
}
