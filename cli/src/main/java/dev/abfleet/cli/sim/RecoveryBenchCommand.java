package dev.abfleet.cli.sim;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.worker.artifact.CacheFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet bench recovery}: how long an experiment takes to recover, with and without snapshots. */
@Command(name = "recovery", mixinStandardHelpOptions = true,
    description = {
      "Write one experiment's journal of N events to an event store (as the controller would,",
      "snapshots included) once per snapshot interval, then recover the entity repeatedly and",
      "print the time from start to its first request for hosts. No workers, no simulation."
    })
final class RecoveryBenchCommand implements Callable<Integer> {
  @Option(names = "--events", defaultValue = "10000", paramLabel = "N",
      description = "Events in the experiment's journal (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(names = "--snapshot-every", defaultValue = "0,100", split = ",", paramLabel = "N",
      description = "Snapshot intervals to compare, comma-separated; 0 = no snapshots (default: ${DEFAULT-VALUE}).")
  List<Integer> intervals;

  @Option(names = "--store", defaultValue = "h2", paramLabel = "KIND",
      description = "h2 (a file in a temp dir) or postgres (--url) (default: ${DEFAULT-VALUE}).")
  String store;

  @Option(names = "--url", paramLabel = "JDBC", description = "PostgreSQL URL, e.g. jdbc:postgresql://127.0.0.1:5432/abfleet_bench.")
  String url;

  @Option(names = "--user", defaultValue = "abfleet", paramLabel = "NAME", description = "PostgreSQL user (default: ${DEFAULT-VALUE}).")
  String user;

  @Option(names = "--password-env", paramLabel = "VAR", description = "Environment variable holding the PostgreSQL password.")
  String passwordEnv;

  @Option(names = "--repeat", defaultValue = "5", paramLabel = "N", description = "Measured recoveries per interval (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(names = "--warmup", defaultValue = "2", paramLabel = "N",
      description = "Unmeasured recoveries per interval first, for the JIT (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Override
  public Integer call() throws Exception {
    SimModelOptions.range("--events", events, 1, 10_000_000);
    SimModelOptions.range("--repeat", repeat, 1, 1_000);
    SimModelOptions.range("--warmup", warmup, 0, 1_000);
    for (int every : intervals) {
      SimModelOptions.range("--snapshot-every", every, 0, 10_000_000);
    }
    Path dir = null;
    ControllerSettings settings;
    String where;
    if (store.equals("h2")) {
      dir = Files.createTempDirectory("abfleet-recovery-");
      settings = ControllerSettings.defaults()
          .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("store")));
      where = "h2 (file in " + dir + ")";
    } else if (store.equals("postgres")) {
      if (url == null || !url.startsWith("jdbc:postgresql:")) {
        throw new Problem("--store postgres needs --url jdbc:postgresql://HOST:PORT/DATABASE");
      }
      String password = passwordEnv == null ? "" : System.getenv(passwordEnv);
      if (password == null) {
        throw new Problem("--password-env names " + passwordEnv + ", which is not set; export it with the database password");
      }
      settings = ControllerSettings.defaults().withStore(ControllerSettings.Store.JDBC, url)
          .withStoreCredentials(user, password);
      where = "postgres (" + url + ")";
    } else {
      throw new Problem("--store '" + store + "': expected h2 or postgres");
    }
    try {
      System.err.println("abfleet bench recovery: writing " + intervals.size() + " journals of " + events
          + " events to " + where);
      String tag = UUID.randomUUID().toString().substring(0, 8);
      List<RecoveryBench.Figures> figures = RecoveryBench.run(settings, events, intervals, warmup, repeat, tag);
      print(figures, where);
      return ExitCodes.OK;
    } finally {
      if (dir != null) {
        CacheFiles.deleteTree(dir);
      }
    }
  }

  private void print(List<RecoveryBench.Figures> figures, String where) {
    RecoveryBench.Figures first = figures.get(0);
    System.out.printf(Locale.ROOT, "recovery of one experiment entity: %d events (%d completed pairs), store %s,"
        + " %d measured recoveries after %d warm-up%n", first.events(), first.pairs(), where, repeat, warmup);
    System.out.printf(Locale.ROOT, "%-16s %-22s %10s %10s %10s%n", "snapshot_every", "events replayed", "median ms",
        "min ms", "max ms");
    for (RecoveryBench.Figures f : figures) {
      String replayed = f.snapshotEvery() == 0 ? String.valueOf(f.events())
          : (f.events() % f.snapshotEvery()) + " after a snapshot";
      System.out.printf(Locale.ROOT, "%-16s %-22s %10.1f %10.1f %10.1f%n",
          f.snapshotEvery() == 0 ? "0 (off)" : String.valueOf(f.snapshotEvery()), replayed, f.median(), f.min(), f.max());
    }
  }
}
