package dev.abfleet.controller.nightly;

import dev.abfleet.model.NightlySchedule;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds a schedule's kernels on the controller's file system, with their SHA-256. Relative paths
 * start at fleet.yaml's directory. The candidate is copied into the controller's artifact store
 * by the caller, so that a later run can use it as the baseline after the build directory has
 * moved on.
 */
final class Kernels {
  private final Path configDir;

  /** @param configDir relative paths in fleet.yaml are taken from here */
  Kernels(Path configDir) {
    this.configDir = configDir;
  }

  /** Tonight's candidate. */
  RunRecord.Artifact candidate(NightlySchedule s) {
    String what = s.aa() ? "kernel" : "candidate";
    Path source = switch (s.candidate().kind()) {
      case "path" -> existing(resolve(s.candidate().location()), s, what + ".path");
      case "newest_in" -> newestIn(resolve(s.candidate().location()), s);
      default -> throw new IllegalStateException("unknown candidate kind " + s.candidate().kind());
    };
    return new RunRecord.Artifact(source.toString(), sha256(source));
  }

  /**
   * The pinned kernel, or the starting kernel of a {@code last_accepted} schedule that has no
   * accepted run yet. (The last accepted candidate itself is in the store: the caller takes it
   * from there.)
   */
  RunRecord.Artifact baselineFile(NightlySchedule s) {
    if (s.baseline().path().isEmpty()) {
      throw new NightlyProblem(s.where() + ": no run has been accepted yet; give a starting kernel,"
          + " baseline: {last_accepted: KERNEL}");
    }
    Path p = existing(resolve(s.baseline().path()), s, "baseline");
    return new RunRecord.Artifact(p.toString(), sha256(p));
  }

  private Path resolve(String location) {
    Path p = Path.of(location);
    return p.isAbsolute() ? p : configDir.resolve(p).normalize();
  }

  private static Path existing(Path p, NightlySchedule s, String what) {
    if (!Files.isRegularFile(p)) {
      throw new NightlyProblem(s.where() + ": " + what + " " + p
          + " is not a file on the controller; point it at a kernel image");
    }
    return p;
  }

  /** The most recently modified vmlinuz* or Image* file in dir (name breaks ties). */
  static Path newestIn(Path dir, NightlySchedule s) {
    String what = (s.aa() ? "kernel" : "candidate") + ".newest_in";
    if (!Files.isDirectory(dir)) {
      throw new NightlyProblem(s.where() + ": " + what + " " + dir + " is not a directory on the controller");
    }
    try (Stream<Path> files = Files.list(dir)) {
      Optional<Path> newest = files.filter(Files::isRegularFile)
          .filter(f -> f.getFileName().toString().startsWith("vmlinuz") || f.getFileName().toString().startsWith("Image"))
          .max(Comparator.comparing(Kernels::modified).thenComparing(f -> f.getFileName().toString()));
      return newest.orElseThrow(() -> new NightlyProblem(s.where() + ": no vmlinuz* or Image* file in "
          + dir + "; has tonight's build been copied there?"));
    } catch (IOException e) {
      throw new NightlyProblem(s.where() + ": cannot list " + dir + " (" + e.getMessage() + ")");
    }
  }

  private static FileTime modified(Path f) {
    try {
      return Files.getLastModifiedTime(f);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }

  /** Lower-case hex SHA-256 of a file. */
  static String sha256(Path p) {
    try (InputStream in = Files.newInputStream(p)) {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        d.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(d.digest());
    } catch (IOException e) {
      throw new NightlyProblem("cannot read " + p + " (" + e.getMessage() + ")");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
