package dev.abfleet.cli.sim;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimKernelEffects;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet sim-kernels}: an ordered list of SIMULATED kernels, for bisect or nightly on sim hosts. */
@Command(name = "sim-kernels", mixinStandardHelpOptions = true,
    description = {
      "SIMULATION: write COUNT sim placeholder kernels DIR/vmlinuz-00, vmlinuz-01, ... (oldest first)",
      "and print their paths in order. Kernels from --first-bad on carry the --effect factors in their",
      "file (sim.effect.METRIC=FACTOR lines), which sim workers apply to every boot of them; the",
      "others simulate no effect. For trying bisect and nightly on a sim fleet, e.g.",
      "  abfleet bisect --hypervisor sim --metric seq_read --controller H:P $(abfleet sim-kernels",
      "      --dir /tmp/k --count 16 --first-bad 9 --effect seq_read=0.85)"
    })
public final class SimKernelsCommand implements Callable<Integer> {
  @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Where to write the kernels.")
  Path dir;

  @Option(names = "--count", defaultValue = "16", paramLabel = "N", description = "Kernels, 2 to 100 (default: ${DEFAULT-VALUE}).")
  int count;

  @Option(names = "--first-bad", required = true, paramLabel = "I", description = "Index of the first kernel with the effect, 1 to N-1.")
  int firstBad;

  @Option(names = "--effect", required = true, paramLabel = "METRIC=FACTOR",
      description = "Factor on a metric from --first-bad on, e.g. seq_read=0.85 for -15%%; repeatable.")
  Map<String, Double> effects = new LinkedHashMap<>();

  @Override
  public Integer call() {
    write(System.out);
    return ExitCodes.OK;
  }

  /** Writes the kernels and prints their paths to {@code out}, oldest first; a Problem names a bad option. */
  public void write(PrintStream out) {
    if (count < 2 || count > 100) {
      throw new Problem("--count " + count + ": expected 2 to 100");
    }
    if (firstBad < 1 || firstBad >= count) {
      throw new Problem("--first-bad " + firstBad + ": expected 1 to " + (count - 1)
          + " (kernel 0 is the good one, the last one has the effect)");
    }
    try {
      SimKernelEffects.format("check", effects);
    } catch (IllegalArgumentException e) {
      throw new Problem("--effect: " + e.getMessage());
    }
    for (int i = 0; i < count; i++) {
      Path file = dir.resolve(String.format(Locale.ROOT, "vmlinuz-%02d", i));
      try {
        out.println(SimArtifacts.kernelAt(file, i >= firstBad ? effects : Map.of()).getUri());
      } catch (IOException e) {
        throw new Problem("cannot write " + file + " (" + e.getMessage() + ")");
      }
    }
  }
}
