package dev.abfleet.cli.noise;

import dev.abfleet.stats.noise.NoiseRecord;
import java.util.List;
import java.util.Optional;

/**
 * Where a command reads noise records: this machine's {@link NoiseStore}, or the controller's
 * journal ({@link ControllerNoise}) when the command talks to a controller, so that every client
 * of one controller quotes the same records.
 */
public interface NoiseSource {
  /** Every record. @throws dev.abfleet.config.Problem a record is unreadable */
  List<NoiseRecord> loadAll();

  /** Where the records are, for messages: a directory or "the controller at HOST:PORT". */
  String where();

  /** The record of {@code hostClass}, if one was measured. */
  default Optional<NoiseRecord> load(String hostClass) {
    return loadAll().stream().filter(r -> r.hostClass().equals(hostClass)).findFirst();
  }

  /** The record whose class label or class key ({@link NoiseStore#key}) is {@code key}. */
  default Optional<NoiseRecord> loadKey(String key) {
    return loadAll().stream().filter(r -> r.hostClass().equals(key) || NoiseStore.key(r.hostClass()).equals(NoiseStore.key(key)))
        .findFirst();
  }

  /** These records, read once. */
  static NoiseSource of(List<NoiseRecord> records, String where) {
    List<NoiseRecord> copy = List.copyOf(records);
    return new NoiseSource() {
      @Override
      public List<NoiseRecord> loadAll() {
        return copy;
      }

      @Override
      public String where() {
        return where;
      }
    };
  }
}
