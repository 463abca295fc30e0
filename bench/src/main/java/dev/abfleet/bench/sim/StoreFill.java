package dev.abfleet.bench.sim;

import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.PekkoConfig;
import dev.abfleet.controller.experiment.ExperimentEvent;
import dev.abfleet.controller.store.EventStore;
import dev.abfleet.controller.store.StoreSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Fills an H2 store with experiments until its file reaches a size: the journals are those of
 * {@link RecoveryBench#journal} (the entity's own decisions: blocks started, boots of four
 * metrics x five iterations recorded, pairs completed), written through an event-sourced
 * behaviour with the controller's snapshot rule, so the file holds what a controller that ran
 * them would hold (journal rows, snapshots, the space of deleted snapshots). Every
 * {@code bigEvery}-th experiment is large ({@code bigEvents}), the others small
 * ({@code smallEvents}). The catalogue is not written: the controller's start fills it from the
 * journal (backfill), as it does for a store from before the catalogue.
 */
public final class StoreFill {
  /** What a fill wrote. */
  public record Filled(int experiments, int big, long events, long fileBytes, double seconds) {}

  private StoreFill() {}

  /**
   * Writes experiments {@code prefix-0000}, {@code prefix-0001}, ... to the store of
   * {@code settings} until {@code file} (its H2 file) holds at least {@code targetBytes};
   * progress lines go to {@code log}.
   */
  public static Filled fill(ControllerSettings settings, Path file, long targetBytes, String prefix,
      int smallEvents, int bigEvents, int bigEvery, PrintStream log) throws Exception {
    long t0 = System.nanoTime();
    List<ExperimentEvent> small = RecoveryBench.journal(prefix, smallEvents);
    List<ExperimentEvent> big = RecoveryBench.journal(prefix, bigEvents);
    OptionalInt found = EventStore.schemaVersion(settings);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), PekkoConfig.SYSTEM_NAME, PekkoConfig.of(settings));
    int n = 0;
    int bigs = 0;
    long events = 0;
    try {
      if (StoreSchema.plan(found, EventStore.name(settings)) == StoreSchema.Plan.CREATE) {
        EventStore.createSchema(system, settings, found);
      }
      while (size(file) < targetBytes) {
        String id = String.format(Locale.ROOT, "%s-%04d", prefix, n);
        boolean isBig = n % bigEvery == 0;
        List<ExperimentEvent> journal = RecoveryBench.renamed(isBig ? big : small, id);
        RecoveryBench.write(system, id, journal, settings.snapshotEvery());
        n++;
        bigs += isBig ? 1 : 0;
        events += journal.size();
        if (isBig) {
          log.printf(Locale.ROOT, "  %d experiments (%d large), %d events, file %d MB, %.0f s%n", n, bigs, events,
              size(file) >> 20, (System.nanoTime() - t0) / 1e9);
        }
      }
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
    return new Filled(n, bigs, events, size(file), (System.nanoTime() - t0) / 1e9);
  }

  private static long size(Path file) throws IOException {
    return Files.exists(file) ? Files.size(file) : 0;
  }
}
