package dev.abfleet.cli.store;

import dev.abfleet.cli.ControllerConfigs;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.StoreLock;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.config.Problem;
import dev.abfleet.worker.WorkerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code abfleet store backup|restore|check}: the H2 store of a stopped controller. */
@Command(name = "store", mixinStandardHelpOptions = true,
    description = {"Back up, restore and check the H2 store of a stopped controller (its experiments,",
      "schedules, tokens). A PostgreSQL store is backed up with pg_dump and restored with pg_restore."},
    subcommands = {StoreCommand.Backup.class, StoreCommand.Restore.class, StoreCommand.Check.class})
public final class StoreCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    throw new Problem("store: missing subcommand; use backup, restore or check (see: abfleet store --help)");
  }

  /** Where the store is: --home and --config, as {@code abfleet controller} reads them. */
  static final class Location {
    @Option(names = "--config", paramLabel = "FILE", description = "fleet.yaml of the controller (default: the built-in one).")
    Path config;

    @Option(names = "--home", paramLabel = "DIR",
        description = "Data directory of the controller (default: $ABFLEET_HOME or ~/.cache/abfleet).")
    Path home;

    /** The store directory, locked against a running controller; the caller closes the lock. */
    Locked lock() {
      FleetConfig cfg = config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config);
      Path dataHome = home != null ? home : WorkerSettings.defaultHome();
      Path dir = ControllerConfigs.h2Dir(cfg, dataHome);
      if (dir == null) {
        throw new Problem("the controller's store is PostgreSQL (controller.store.kind: postgres);"
            + " back it up with pg_dump -Fc and restore it with pg_restore (the store commands are for H2 stores)");
      }
      String origin = ControllerConfigs.h2DirOrigin(cfg,
          home != null ? "--home " + home : "home " + dataHome + " (the default; see --home)");
      StoreLock lock = StoreLock.acquire(dir, origin, "wait until it has stopped");
      return new Locked(new H2Store(dir), origin, lock);
    }
  }

  record Locked(H2Store store, String origin, StoreLock lock) implements AutoCloseable {
    @Override
    public void close() {
      lock.close();
    }
  }

  @Command(name = "backup", mixinStandardHelpOptions = true,
      description = "Write the whole store to FILE (gzip-compressed SQL); reads every row on the way.")
  static final class Backup implements Callable<Integer> {
    @Mixin Location location;

    @Option(names = "--to", required = true, paramLabel = "FILE", description = "Backup file to write (must not exist).")
    Path to;

    @Override
    public Integer call() {
      if (Files.exists(to)) {
        throw new Problem("--to " + to + " exists; choose a new file name (a backup never overwrites one)");
      }
      try (Locked l = location.lock()) {
        if (!l.store().exists()) {
          throw new Problem(l.origin() + " has no store (" + l.store().file() + "); pass the --home"
              + " (or --config) the controller runs with");
        }
        H2Store.Checked c = l.store().backup(to);
        System.out.println("backed up " + l.store().file() + " to " + to + ": " + describe(c));
        return ExitCodes.OK;
      } catch (SQLException e) {
        return damaged("backup", e);
      }
    }
  }

  @Command(name = "restore", mixinStandardHelpOptions = true,
      description = {"Rebuild the store from a backup FILE. A store already there is kept beside it",
        "(controller.mv.db.before-restore-TIME), never deleted."})
  static final class Restore implements Callable<Integer> {
    @Mixin Location location;

    @Option(names = "--from", required = true, paramLabel = "FILE", description = "Backup written by abfleet store backup.")
    Path from;

    @Override
    public Integer call() throws IOException {
      if (!Files.isRegularFile(from)) {
        throw new Problem("--from " + from + ": no such file; pass a file written by abfleet store backup");
      }
      try (Locked l = location.lock()) {
        Path file = l.store().file();
        if (Files.exists(file)) {
          Path aside = file.resolveSibling(file.getFileName() + ".before-restore-"
              + DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()));
          Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
          System.err.println("abfleet store: kept the store that was there as " + aside);
        }
        H2Store.Checked c = l.store().restore(from);
        System.out.println("restored " + file + " from " + from + ": " + describe(c));
        return ExitCodes.OK;
      } catch (SQLException e) {
        throw new Problem("--from " + from + " cannot be restored: " + e.getMessage()
            + "; pass a file written by abfleet store backup");
      }
    }
  }

  @Command(name = "check", mixinStandardHelpOptions = true,
      description = "Open the store read-only and read every row; exit 3 naming the damage if it cannot.")
  static final class Check implements Callable<Integer> {
    @Mixin Location location;

    @Override
    public Integer call() {
      try (Locked l = location.lock()) {
        if (!l.store().exists()) {
          throw new Problem(l.origin() + " has no store (" + l.store().file() + "); pass the --home"
              + " (or --config) the controller runs with");
        }
        H2Store.Checked c = l.store().check();
        System.out.println("store " + l.store().file() + " is readable: " + describe(c));
        return ExitCodes.OK;
      } catch (SQLException e) {
        return damaged("check", e);
      }
    }
  }

  private static int damaged(String what, SQLException e) {
    System.err.println("abfleet store " + what + ": the store is damaged: " + e.getMessage()
        + "; restore the last backup (abfleet store restore --from FILE)");
    return ExitCodes.FAILED;
  }

  static String describe(H2Store.Checked c) {
    return c.experiments() + " experiments, " + c.rows() + " rows in " + c.tables() + " tables";
  }
}
