package dev.abfleet.cli.nightly;

import dev.abfleet.config.Problem;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.cli.history.HistoryEntry;
import dev.abfleet.worker.artifact.ArtifactCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Resolves a schedule's kernels to files with their SHA-256. Tonight's candidate is copied
 * into {@code $ABFLEET_HOME/nightly/artifacts/<sha256>/}, so that a later run can still use it
 * as the baseline after the build directory has moved on.
 */
final class Kernels {
  private final Path configDir;
  private final Path home;

  /** @param configDir relative paths in fleet.yaml are taken from here */
  Kernels(Path configDir, Path home) {
    this.configDir = configDir;
    this.home = home;
  }

  /** Tonight's candidate, snapshotted by content. */
  HistoryEntry.Artifact candidate(FleetConfig.Schedule s) {
    Path source = switch (s.candidate().kind()) {
      case "path" -> existing(resolve(s.candidate().location()), s, s.aa() ? "kernel.path" : "candidate.path");
      case "newest_in" -> newestIn(resolve(s.candidate().location()), s);
      default -> throw new IllegalStateException("unknown candidate kind " + s.candidate().kind());
    };
    String sha = sha(source);
    Path snapshot = home.resolve("nightly").resolve("artifacts").resolve(sha).resolve(source.getFileName());
    try {
      if (!Files.exists(snapshot)) {
        Files.createDirectories(snapshot.getParent());
        Path tmp = snapshot.resolveSibling(snapshot.getFileName() + ".part");
        Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, snapshot, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException e) {
      throw new Problem("schedule " + s.name() + ": cannot copy " + source + " to " + snapshot + " ("
          + e.getMessage() + "); check free space and permissions of $ABFLEET_HOME");
    }
    return new HistoryEntry.Artifact(snapshot.toString(), sha);
  }

  /** The pinned kernel, the last accepted candidate, or the starting kernel. */
  HistoryEntry.Artifact baseline(FleetConfig.Schedule s, java.util.Optional<HistoryEntry> lastAccepted) {
    FleetConfig.Baseline b = s.baseline();
    if (b.kind().equals("last_accepted") && lastAccepted.isPresent()) {
      HistoryEntry.Artifact a = lastAccepted.get().candidate();
      Path p = Path.of(a.path());
      if (!Files.isRegularFile(p)) {
        throw new Problem("schedule " + s.name() + ": the last accepted kernel " + p + " (run "
            + lastAccepted.get().experiment() + ") is gone; restore it or set baseline: {pinned: KERNEL}");
      }
      String sha = sha(p);
      if (!sha.equals(a.sha256())) {
        throw new Problem("schedule " + s.name() + ": " + p + " no longer has sha256 " + a.sha256()
            + " recorded by run " + lastAccepted.get().experiment() + "; restore it or pin a baseline");
      }
      return a;
    }
    if (b.path().isEmpty()) {
      throw new Problem("schedule " + s.name() + " (fleet.yaml:" + s.line() + "): no run has been accepted"
          + " yet; give a starting kernel, baseline: {last_accepted: KERNEL}");
    }
    Path p = existing(resolve(b.path()), s, "baseline");
    return new HistoryEntry.Artifact(p.toString(), sha(p));
  }

  private Path resolve(String location) {
    Path p = Path.of(location);
    return p.isAbsolute() ? p : configDir.resolve(p).normalize();
  }

  private static Path existing(Path p, FleetConfig.Schedule s, String what) {
    if (!Files.isRegularFile(p)) {
      throw new Problem("schedule " + s.name() + " (fleet.yaml:" + s.line() + "): " + what + " " + p
          + " is not a file; point it at a kernel image");
    }
    return p;
  }

  /** The most recently modified vmlinuz* or Image* file in dir (name breaks ties). */
  static Path newestIn(Path dir, FleetConfig.Schedule s) {
    if (!Files.isDirectory(dir)) {
      throw new Problem("schedule " + s.name() + " (fleet.yaml:" + s.line() + "): " + (s.aa() ? "kernel" : "candidate") + ".newest_in " + dir
          + " is not a directory");
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(Files::isRegularFile)
          .filter(f -> f.getFileName().toString().startsWith("vmlinuz") || f.getFileName().toString().startsWith("Image"))
          .max(Comparator.comparing(Kernels::modified).thenComparing(f -> f.getFileName().toString()))
          .orElseThrow(() -> new Problem("schedule " + s.name() + ": no vmlinuz* or Image* file in " + dir
              + "; has tonight's build been copied there?"));
    } catch (IOException e) {
      throw new Problem("schedule " + s.name() + ": cannot list " + dir + " (" + e.getMessage() + ")");
    }
  }

  private static java.nio.file.attribute.FileTime modified(Path f) {
    try {
      return Files.getLastModifiedTime(f);
    } catch (IOException e) {
      return java.nio.file.attribute.FileTime.fromMillis(0);
    }
  }

  private static String sha(Path p) {
    try {
      return ArtifactCache.sha256(p);
    } catch (IOException e) {
      throw new Problem("cannot read " + p + " (" + e.getMessage() + ")");
    }
  }
}
