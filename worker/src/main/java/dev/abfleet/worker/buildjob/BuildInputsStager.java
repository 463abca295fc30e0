package dev.abfleet.worker.buildjob;

import dev.abfleet.proto.fleet.v1.BuildFile;
import dev.abfleet.proto.fleet.v1.BuildInputs;
import dev.abfleet.model.BuildSource;
import dev.abfleet.model.BuildSpec;
import dev.abfleet.worker.artifact.CacheFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a build assignment's inputs (files named by sha256) into a {@link BuildSpec} the kernel
 * builder reads: each file is fetched into the artifact cache and linked under its own name in
 * a directory of the attempt, since the builder records patch names and reads the tarball's
 * compression from its name.
 */
public final class BuildInputsStager {

  /** Returns the cached copy of an artifact, fetching it from the controller's store if absent. */
  public interface Fetch {
    Path fetch(String sha256) throws IOException;
  }

  private final Fetch fetch;
  private final Path root;

  /** @param root where each attempt's input directory is made ({@code <worker home>/builds/inputs}) */
  BuildInputsStager(Fetch fetch, Path root) {
    this.fetch = fetch;
    this.root = root;
  }

  /** @throws IOException an input cannot be fetched or linked (INFRA: the store or this host) */
  BuildSpec stage(String attemptId, BuildInputs in) throws IOException {
    Path dir = root.resolve(attemptId.replaceAll("[^A-Za-z0-9_.-]", "_"));
    if (Files.exists(dir)) {
      CacheFiles.deleteTree(dir);
    }
    Files.createDirectories(dir);
    Path source = link(dir, in.getSource());
    List<Path> patches = new ArrayList<>();
    for (int i = 0; i < in.getPatchesCount(); i++) {
      patches.add(link(dir.resolve("patch-" + i), in.getPatches(i)));
    }
    List<Path> fragments = new ArrayList<>();
    for (int i = 0; i < in.getConfigFragmentsCount(); i++) {
      fragments.add(link(dir.resolve("fragment-" + i), in.getConfigFragments(i)));
    }
    String base = in.hasConfigFile() && !in.getConfigFile().getSha256().isEmpty()
        ? link(dir.resolve("config"), in.getConfigFile()).toString()
        : in.getConfigBase();
    return new BuildSpec(new BuildSource.Tarball(source), patches, base, fragments, in.getConfigLinesList(),
        in.getArch(), in.getMakeArgsList());
  }

  /** Removes what {@link #stage} made for the attempt (the cached files stay). */
  void clean(String attemptId) {
    try {
      CacheFiles.deleteTree(root.resolve(attemptId.replaceAll("[^A-Za-z0-9_.-]", "_")));
    } catch (IOException e) {
      // a leftover directory of links is harmless
    }
  }

  private Path link(Path dir, BuildFile file) throws IOException {
    if (file.getName().contains("/") || file.getName().startsWith(".")) {
      throw new IOException("input name '" + file.getName() + "' is not a plain file name");
    }
    Path cached = fetch.fetch(file.getSha256());
    Files.createDirectories(dir);
    Path named = dir.resolve(file.getName());
    Files.createSymbolicLink(named, cached.toAbsolutePath());
    return named;
  }
}
