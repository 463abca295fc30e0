package dev.abfleet.cli.sim;

import dev.abfleet.bench.sim.StoreFill;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.StoreLock;
import dev.abfleet.controller.ControllerSettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet bench fill}: a controller home whose H2 store is as large as asked, for store and memory tests. */
@Command(name = "fill", mixinStandardHelpOptions = true,
    description = {
      "Fill the H2 store of a stopped controller's --home (DIR/store/controller.mv.db, created if",
      "missing) with running experiments until the file holds --mb MB: journals written as the",
      "controller writes them (blocks, boots of 4 metrics x 5 iterations, pairs; a snapshot every",
      "--snapshot-every events). Every --big-every-th experiment has --big-events events, the",
      "others --small-events. `abfleet controller --home DIR` then serves them; no workers are needed."
    })
final class FillBenchCommand implements Callable<Integer> {
  @Option(names = "--home", required = true, paramLabel = "DIR", description = "Controller home to fill.")
  Path home;

  @Option(names = "--mb", defaultValue = "250", paramLabel = "MB", description = "Store file size to reach, in MB of 2^20 bytes (default: ${DEFAULT-VALUE}).")
  int mb;

  @Option(names = "--small-events", defaultValue = "1000", paramLabel = "N",
      description = "Events of a small experiment (4 a pair; default: ${DEFAULT-VALUE}).")
  int smallEvents;

  @Option(names = "--big-events", defaultValue = "10000", paramLabel = "N",
      description = "Events of a large experiment (default: ${DEFAULT-VALUE}).")
  int bigEvents;

  @Option(names = "--big-every", defaultValue = "5", paramLabel = "N",
      description = "Every N-th experiment is large, the first included (default: ${DEFAULT-VALUE}).")
  int bigEvery;

  @Option(names = "--snapshot-every", defaultValue = "" + ControllerSettings.DEFAULT_SNAPSHOT_EVERY, paramLabel = "N",
      description = "controller.store.snapshot_every the journals are written with (default: ${DEFAULT-VALUE}, fleet.yaml's).")
  int snapshotEvery;

  PrintStream out = System.out;

  @Override
  public Integer call() throws Exception {
    SimModelOptions.range("--mb", mb, 1, 1_000_000);
    SimModelOptions.range("--small-events", smallEvents, 5, 10_000_000);
    SimModelOptions.range("--big-events", bigEvents, 5, 10_000_000);
    SimModelOptions.range("--big-every", bigEvery, 1, 1_000_000);
    SimModelOptions.range("--snapshot-every", snapshotEvery, 0, 10_000_000);
    Path dir = home.resolve("store");
    Path file = dir.resolve("controller.mv.db");
    try (StoreLock lock = StoreLock.acquire(dir, "--home " + home, "stop the controller that uses it first")) {
      ControllerSettings settings = ControllerSettings.defaults()
          .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")))
          .withSnapshotEvery(snapshotEvery);
      String prefix = "fill-" + UUID.randomUUID().toString().substring(0, 6);
      out.printf(Locale.ROOT, "abfleet bench fill: writing experiments %s-NNNN to %s until it holds %d MB%n", prefix, file, mb);
      StoreFill.Filled f = StoreFill.fill(settings, file, (long) mb << 20, prefix, smallEvents, bigEvents, bigEvery, out);
      out.printf(Locale.ROOT, "filled: %d experiments (%d of %d events, %d of %d), %d events, file %.1f MB, %.0f s%n",
          f.experiments(), f.big(), bigEvents, f.experiments() - f.big(), smallEvents, f.events(),
          f.fileBytes() / 1048576.0, f.seconds());
      return ExitCodes.OK;
    }
  }
}
