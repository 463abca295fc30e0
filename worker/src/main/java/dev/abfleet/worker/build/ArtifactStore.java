package dev.abfleet.worker.build;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.abfleet.worker.artifact.CacheFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The finished builds, {@code home/artifacts/<key>/}: the boot image ({@code bzImage} or
 * {@code Image}), {@code config}, {@code System.map}, {@code build.log},
 * {@code dropped-options.txt}, {@code modules/lib/modules/<release>/} when the config has
 * modules, and {@code manifest.json}, written last and atomically: an entry without it is
 * incomplete and is built again. Failed builds leave their log at {@code home/failed/<key>/build.log}.
 */
final class ArtifactStore {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final String MANIFEST = "manifest.json";
  private static final String DROPPED = "dropped-options.txt";

  private final Path home;

  ArtifactStore(Path home) {
    this.home = home;
  }

  Path dir(String key) {
    return home.resolve("artifacts").resolve(key);
  }

  /** The complete entry of {@code key}, as a cached result, if there is one. */
  Optional<BuildResult.Built> cached(String key, Duration wall) {
    Path dir = dir(key);
    try {
      BuildManifest m = JSON.readValue(dir.resolve(MANIFEST).toFile(), BuildManifest.class);
      List<String> dropped = Files.readAllLines(dir.resolve(DROPPED), StandardCharsets.UTF_8).stream()
          .filter(l -> !l.isBlank()).toList();
      return Optional.of(built(m, dropped, true, wall));
    } catch (IOException e) {
      return Optional.empty(); // absent or incomplete: build it
    }
  }

  /**
   * Publishes a build: copies its files into the entry, moves the staged modules in, and writes
   * the manifest last.
   */
  BuildResult.Built store(BuildManifest m, CompileStep.Outcome compiled, Path config, Path log,
      List<String> dropped, Duration wall) throws IOException {
    Path dir = dir(m.key());
    CacheFiles.deleteTree(dir);
    Files.createDirectories(dir);
    Files.copy(compiled.image(), dir.resolve(imageName(m.arch())));
    Files.copy(config, dir.resolve("config"));
    Files.copy(compiled.systemMap(), dir.resolve("System.map"));
    Files.copy(log, dir.resolve("build.log"));
    Files.write(dir.resolve(DROPPED), dropped, StandardCharsets.UTF_8);
    if (compiled.modules() != null) {
      Path release = compiled.modules().resolve("lib/modules").resolve(m.release());
      // modules_install links back into the warm tree, which eviction may delete.
      Files.deleteIfExists(release.resolve("build"));
      Files.deleteIfExists(release.resolve("source"));
      Files.move(compiled.modules(), dir.resolve("modules"));
    }
    Path tmp = dir.resolve(MANIFEST + ".tmp");
    JSON.writeValue(tmp.toFile(), m);
    CacheFiles.moveIntoPlace(tmp, dir.resolve(MANIFEST));
    return built(m, dropped, false, wall);
  }

  /** Keeps a failed build's log at {@code home/failed/<key>/build.log}; returns its path (null if none). */
  Path keepFailedLog(String key, Path log) throws IOException {
    if (key == null || log == null || !Files.exists(log)) {
      return null;
    }
    Path dir = home.resolve("failed").resolve(key);
    Files.createDirectories(dir);
    Path kept = dir.resolve("build.log");
    Files.copy(log, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    return kept;
  }

  static String imageName(String arch) {
    return arch.equals("aarch64") ? "Image" : "bzImage";
  }

  private BuildResult.Built built(BuildManifest m, List<String> dropped, boolean cached, Duration wall) {
    Path dir = dir(m.key());
    Path modules = dir.resolve("modules/lib/modules").resolve(m.release());
    return new BuildResult.Built(m.key(), dir.resolve(imageName(m.arch())), dir.resolve("config"),
        dir.resolve("System.map"), Files.isDirectory(modules) ? modules : null, dir.resolve("build.log"), cached,
        wall, dropped, m);
  }
}
