package dev.abfleet.cli.bisect;

import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.cli.sim.SimKernelsCommand;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.worker.sim.SimModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * One bisect as a user runs it from {@code abfleet sim-kernels --help}: sim kernels written by
 * {@code sim-kernels}, then {@code abfleet bisect --hypervisor sim} against a real controller
 * with two sim workers whose model is seeded with {@code seed}.
 */
final class SimKernelsBisect {
  private static final Pattern FIRST_BAD = Pattern.compile("first regressing: #(\\d+) .*");
  private static final Pattern STEP = Pattern.compile("(probe|endpoints) #\\d+ vs #\\d+: .*");
  /** Hosts of the sim fleet: two, so that each probe's pairs are spread over a host pair. */
  static final int HOSTS = 2;

  /**
   * @param exit the bisect's exit code
   * @param firstBad the kernel it named first regressing; -1 when it found none
   * @param steps experiments it ran: the endpoints' and the probes'
   * @param report what it printed
   */
  record Outcome(int exit, int firstBad, int steps, String report) {}

  private SimKernelsBisect() {}

  /**
   * The bisect example in {@code abfleet sim-kernels --help}, split into the bisect's arguments
   * (before {@code $(}) and sim-kernels' (inside it); H:P and /tmp/k are placeholders.
   */
  static List<List<String>> helpExample() {
    String[] lines = SimKernelsCommand.class.getAnnotation(CommandLine.Command.class).description();
    int at = Arrays.asList(lines).indexOf(Arrays.stream(lines).filter(l -> l.trim().startsWith("abfleet bisect"))
        .findFirst().orElseThrow(() -> new AssertionError("no bisect example in sim-kernels --help")));
    String example = (lines[at] + " " + lines[at + 1]).trim().replaceAll("\\s+", " ");
    int sub = example.indexOf("$(abfleet sim-kernels");
    List<String> bisect = List.of(example.substring("abfleet bisect".length(), sub).trim().split(" "));
    String inner = example.substring(sub + "$(abfleet sim-kernels".length(), example.lastIndexOf(')')).trim();
    return List.of(bisect, List.of(inner.split(" ")));
  }

  /**
   * Runs {@code bisect} (with "H:P" standing for the controller) over the kernels
   * {@code sim-kernels} writes for {@code simKernels} (with "/tmp/k" standing for a directory under
   * {@code home}), on a fresh controller and sim fleet seeded with {@code seed}.
   */
  static Outcome run(Path home, long seed, List<String> bisect, List<String> simKernels) {
    Path dir = home.resolve("seed-" + seed);
    List<String> kernelArgs = simKernels.stream().map(a -> a.equals("/tmp/k") ? dir.resolve("k").toString() : a)
        .toList();
    ByteArrayOutputStream paths = new ByteArrayOutputStream();
    SimKernelsCommand kernels = new SimKernelsCommand();
    new CommandLine(kernels).parseArgs(kernelArgs.toArray(String[]::new));
    kernels.write(new PrintStream(paths, true, StandardCharsets.UTF_8));

    try (ControllerNode controller = ControllerNode.start(ControllerSettings.inMemory());
        SimFleet fleet = SimFleet.start("127.0.0.1:" + controller.grpcPort(), HOSTS, "sim-",
            SimModel.defaults().withSeed(seed).withTimeScale(0.001), Map.of(), dir.resolve("workers"), r -> { })) {
      String target = "127.0.0.1:" + controller.grpcPort();
      List<String> args = new ArrayList<>(bisect.stream().map(a -> a.equals("H:P") ? target : a).toList());
      args.addAll(paths.toString(StandardCharsets.UTF_8).lines().toList());
      BisectCommand cmd = new BisectCommand();
      new CommandLine(cmd).parseArgs(args.toArray(String[]::new));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int exit = cmd.run(new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
      String report = out.toString(StandardCharsets.UTF_8);
      int firstBad = report.lines().map(FIRST_BAD::matcher).filter(Matcher::matches)
          .mapToInt(m -> Integer.parseInt(m.group(1))).findFirst().orElse(-1);
      int steps = (int) report.lines().filter(l -> STEP.matcher(l).matches()).count();
      return new Outcome(exit, firstBad, steps, report);
    }
  }
}
