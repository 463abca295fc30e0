package dev.abfleet.cli.noise;

import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.config.Problem;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The measured noise of each host class: one JSON file per class, {@code DIR/<class-key>.json}
 * (DIR is {@code $ABFLEET_HOME/noise}). The key is the class label with every run of characters
 * other than letters, digits, '.', '=' and '-' replaced by '_' ({@code qemu/tcg} is
 * {@code qemu_tcg}); the file holds the label itself, and a file whose label differs (two labels
 * with one key) is never quoted for the other class.
 *
 * <p>Each {@link #merge} adds to the class's record ({@link NoiseRecord#merge}: experiments and
 * pairs accumulate, the latest date is kept), so noise measured over many nights tightens rather
 * than being replaced. The merged moments are stored, the derived cv and paired_sd beside them
 * for people reading the file, and the newest paired log ratios ({@link MetricNoise#recent};
 * optional: a record written before they were kept plans from its sd). A class of sim hosts
 * ({@link NoiseRecord#simulated}) also says {@code "simulated": true}.
 */
public final class NoiseStore implements NoiseSource {
  static final int FORMAT_VERSION = 1;
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private final Path dir;

  public NoiseStore(Path dir) {
    this.dir = dir;
  }

  /** The store under an abfleet home directory. */
  public static NoiseStore inHome(Path home) {
    return new NoiseStore(home.resolve("noise"));
  }

  public Path dir() {
    return dir;
  }

  @Override
  public String where() {
    return dir.toString();
  }

  /** The filesystem-safe key of a host-class label. */
  public static String key(String hostClass) {
    String k = hostClass.trim().replaceAll("[^A-Za-z0-9.=-]+", "_");
    return k.isEmpty() || k.startsWith(".") ? "_" + k : k;
  }

  public Path file(String hostClass) {
    return dir.resolve(key(hostClass) + ".json");
  }

  /** The record of {@code hostClass}, if one was measured. @throws Problem the file is unreadable */
  @Override
  public Optional<NoiseRecord> load(String hostClass) {
    Path f = file(hostClass);
    if (!Files.exists(f)) {
      return Optional.empty();
    }
    NoiseRecord r = read(f);
    return r.hostClass().equals(hostClass) ? Optional.of(r) : Optional.empty();
  }

  /** The record stored under {@code key} (a class key or a class label). */
  @Override
  public Optional<NoiseRecord> loadKey(String key) {
    Path f = dir.resolve(key(key) + ".json");
    return Files.exists(f) ? Optional.of(read(f)) : Optional.empty();
  }

  /** Every record, by file name. @throws Problem a file is unreadable */
  @Override
  public List<NoiseRecord> loadAll() {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<NoiseRecord> out = new ArrayList<>();
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList()) {
        out.add(read(f));
      }
      return out;
    } catch (IOException e) {
      throw new Problem("cannot list the noise records in " + dir + ": " + e.getMessage());
    }
  }

  /** Adds {@code r} to its class's record and returns the merged record. */
  public NoiseRecord merge(NoiseRecord r) {
    // A calibrate --real and a nightly A/A run may finish at once: read-merge-write under one lock.
    try {
      Files.createDirectories(dir);
      try (FileChannel ch = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = ch.lock()) {
        NoiseRecord merged = load(r.hostClass()).map(old -> old.merge(r)).orElse(r);
        write(merged);
        return merged;
      }
    } catch (IOException e) {
      throw new Problem("cannot lock the noise records in " + dir + ": " + e.getMessage()
          + "; check that ABFLEET_HOME (" + dir.getParent() + ") is writable");
    }
  }

  private void write(NoiseRecord r) {
    Path f = file(r.hostClass());
    try {
      Path tmp = Files.createTempFile(dir, key(r.hostClass()), ".tmp");
      Files.writeString(tmp, JSON.writeValueAsString(toJson(r)) + "\n");
      try {
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new Problem("cannot write the noise record " + f + ": " + e.getMessage()
          + "; check that ABFLEET_HOME (" + dir.getParent() + ") is writable");
    }
  }

  static ObjectNode toJson(NoiseRecord r) {
    ObjectNode n = JSON.createObjectNode();
    n.put("format_version", FORMAT_VERSION);
    n.put("class", r.hostClass());
    if (r.simulated()) {
      // For people reading the file; derived from the class when read back.
      n.put("simulated", true);
    }
    n.put("experiments", r.experiments());
    n.put("false_positives", r.falsePositives());
    n.put("date", r.date().toString());
    ArrayNode gating = n.putArray("gating_metrics");
    r.gating().forEach(gating::add);
    ArrayNode metrics = n.putArray("metrics");
    for (MetricNoise m : r.metrics()) {
      ObjectNode o = metrics.addObject();
      o.put("metric", m.metric());
      number(o, "cv", m.cv());
      number(o, "paired_sd", m.pairedSd());
      o.put("pairs", m.pairs());
      moments(o.putObject("boot_medians"), m.boots());
      moments(o.putObject("paired_log_ratios"), m.diffs());
      ArrayNode recent = o.putArray("recent_log_ratios");
      m.recent().forEach(recent::add);
    }
    return n;
  }

  private static void moments(ObjectNode o, Moments m) {
    o.put("n", m.n());
    o.put("mean", m.mean());
    o.put("m2", m.m2());
  }

  private static void number(ObjectNode o, String field, double v) {
    if (Double.isFinite(v)) {
      o.put(field, v);
    } else {
      o.putNull(field);
    }
  }

  /** @throws Problem naming the file and the fix */
  static NoiseRecord read(Path f) {
    try {
      return fromJson(JSON.readTree(f.toFile()));
    } catch (IOException | RuntimeException e) {
      throw new Problem("noise record " + f + " is unreadable (" + String.valueOf(e.getMessage()).lines().findFirst().orElse("")
          + "); delete it and re-run abfleet calibrate --real to measure the class again");
    }
  }

  private static NoiseRecord fromJson(JsonNode n) {
    if (n == null || !n.isObject() || n.path("format_version").asInt() != FORMAT_VERSION) {
      throw new IllegalArgumentException("expected a JSON object with format_version " + FORMAT_VERSION);
    }
    List<String> gating = new ArrayList<>();
    n.path("gating_metrics").forEach(g -> gating.add(g.asText()));
    List<MetricNoise> metrics = new ArrayList<>();
    for (JsonNode m : required(n, "metrics")) {
      List<Double> recent = new ArrayList<>();
      for (JsonNode d : m.path("recent_log_ratios")) {
        if (!d.isNumber() || !Double.isFinite(d.asDouble())) {
          throw new IllegalArgumentException("recent_log_ratios holds " + d + "; expected finite numbers");
        }
        recent.add(d.asDouble());
      }
      metrics.add(new MetricNoise(required(m, "metric").asText(), moments(required(m, "boot_medians")),
          moments(required(m, "paired_log_ratios")), recent));
    }
    long experiments = required(n, "experiments").asLong();
    long fps = required(n, "false_positives").asLong();
    if (experiments < 0 || fps < 0 || fps > experiments) {
      throw new IllegalArgumentException("false_positives " + fps + " of experiments " + experiments);
    }
    return new NoiseRecord(required(n, "class").asText(), experiments, fps,
        LocalDate.parse(required(n, "date").asText()), gating, metrics);
  }

  private static Moments moments(JsonNode n) {
    long count = required(n, "n").asLong();
    double m2 = required(n, "m2").asDouble();
    if (count < 0 || m2 < 0) {
      throw new IllegalArgumentException("negative n or m2 in " + n);
    }
    return new Moments(count, required(n, "mean").asDouble(), m2);
  }

  private static JsonNode required(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      throw new IllegalArgumentException("no field " + field);
    }
    return v;
  }
}
