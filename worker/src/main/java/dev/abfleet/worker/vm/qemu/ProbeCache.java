package dev.abfleet.worker.vm.qemu;

import dev.abfleet.worker.artifact.CacheFiles;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the accelerator probe's verdict on disk, so that a worker start does not pay for the
 * probe again: about 5 s on hosts where {@code /dev/kvm} exists but hangs, since the probe
 * waits out its timeout there.
 *
 * <p>A stored verdict is reused while its key still matches ({@link #key}: the
 * qemu-system-x86_64 path, its {@code -version} line and whether {@code /dev/kvm} exists) and
 * it is younger than the TTL ({@link #DEFAULT_TTL}); otherwise the host is probed again and the
 * file rewritten. Verdicts in which no accelerator worked, interrupted probes and probes whose
 * QEMU version is unknown are not stored. To force a new probe (say, after enabling nested
 * virtualization) delete the file, {@code <abfleet home>/probe/accel-probe.properties}.
 */
public final class ProbeCache implements Function<String, AccelProbe> {

  private static final Logger log = LoggerFactory.getLogger(ProbeCache.class);

  /** How long a stored verdict is trusted: a day, so kernel or BIOS changes are seen daily. */
  public static final Duration DEFAULT_TTL = Duration.ofHours(24);
  /** The file name under the worker's probe directory. */
  public static final String FILE_NAME = "accel-probe.properties";

  private final Path file;
  private final Duration ttl;
  private final Clock clock;
  private final Function<String, String> keyOf;
  private final Function<String, AccelProbe> prober;

  /**
   * @param file where the verdict is kept (a properties file)
   * @param ttl how long a stored verdict is reused
   * @param clock the time the TTL is measured with
   * @param keyOf given the qemu binary, the key the verdict depends on ({@link #key}); null
   *     when it cannot be told, which disables the cache for that call
   * @param prober the real probe, given the qemu binary
   */
  public ProbeCache(Path file, Duration ttl, Clock clock, Function<String, String> keyOf,
      Function<String, AccelProbe> prober) {
    this.file = file;
    this.ttl = ttl;
    this.clock = clock;
    this.keyOf = keyOf;
    this.prober = prober;
  }

  /**
   * What a verdict depends on; null when the QEMU version is unknown (an upgrade could then go
   * unnoticed).
   */
  public static String key(String qemuBinary, String qemuVersion, boolean devKvmExists) {
    if (qemuVersion == null || qemuVersion.isBlank()) {
      return null;
    }
    return qemuBinary + " | " + qemuVersion.strip() + " | /dev/kvm " + (devKvmExists ? "present" : "absent");
  }

  @Override
  public AccelProbe apply(String qemuBinary) {
    String key = keyOf.apply(qemuBinary);
    Optional<AccelProbe> stored = key == null ? Optional.empty() : load(key);
    if (stored.isPresent()) {
      log.info("accelerator probe from {} (delete it to probe again): working={} rejected={}",
          file, stored.get().working(), stored.get().reasons());
      return stored.get();
    }
    AccelProbe fresh = prober.apply(qemuBinary);
    if (key != null && !fresh.working().isEmpty() && !Thread.currentThread().isInterrupted()) {
      store(key, fresh);
    }
    return fresh;
  }

  /** The stored verdict for {@code key} if it is there, readable and fresh. */
  Optional<AccelProbe> load(String key) {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | IllegalArgumentException e) {
      log.debug("ignoring unreadable probe cache {}: {}", file, e.toString());
      return Optional.empty();
    }
    if (!key.equals(p.getProperty("key"))) {
      return Optional.empty();
    }
    Instant probedAt;
    try {
      probedAt = Instant.parse(p.getProperty("probedAt", ""));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    Duration age = Duration.between(probedAt, clock.instant());
    if (age.isNegative() || age.compareTo(ttl) > 0) {
      return Optional.empty();
    }
    List<String> working = Arrays.stream(p.getProperty("working", "").split(","))
        .filter(s -> !s.isBlank()).toList();
    if (working.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> reasons = new LinkedHashMap<>();
    for (String name : p.stringPropertyNames()) {
      if (name.startsWith("reason.")) {
        reasons.put(name.substring("reason.".length()), p.getProperty(name));
      }
    }
    return Optional.of(new AccelProbe(working, reasons));
  }

  private void store(String key, AccelProbe probe) {
    Properties p = new Properties();
    p.setProperty("key", key);
    p.setProperty("probedAt", clock.instant().toString());
    p.setProperty("working", String.join(",", probe.working()));
    probe.reasons().forEach((accel, reason) -> p.setProperty("reason." + accel, reason));
    try {
      Path dir = Files.createDirectories(file.toAbsolutePath().getParent());
      Path tmp = Files.createTempFile(dir, FILE_NAME, ".tmp");
      try {
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
          p.store(out, "abfleet accelerator probe; delete this file to probe again");
        }
        CacheFiles.moveIntoPlace(tmp, file);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      log.info("cannot keep the accelerator probe in {} (the next start probes again): {}", file, e.toString());
    }
  }
}
