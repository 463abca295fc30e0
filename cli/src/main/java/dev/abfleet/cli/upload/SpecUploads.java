package dev.abfleet.cli.upload;

import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.ArtifactStatus;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.ArtifactUri;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Before a spec goes to a controller: every artifact that is a readable file on this machine
 * (arm kernels, initrds, guest images, the workload's packed files) is uploaded to the
 * controller's store and named {@code abfleet:sha256:<hex>}, so that workers fetch it from the
 * controller and need no shared path. Artifacts the store holds already are not sent again. A
 * path that is not readable here is left as it is: a path on the workers.
 *
 * <p>An arm's module tree (its {@code modules_dir}, or {@code <root>/lib/modules/<release>}
 * beside a kernel at {@code <root>/boot/vmlinuz-<release>}) that is a directory here travels as
 * {@code modules_tree}: only the modules its guest can need, with their dependencies, packed and
 * uploaded like the kernel ({@link ModuleTreePacks}). A {@code modules_dir} that is not a
 * directory here stays a path on the workers.
 */
public final class SpecUploads {

  private final ControllerArtifacts store;
  private final Function<Supplier<ArtifactStatus>, ArtifactStatus> retrying;
  private final PrintStream err;
  private final ModuleTreePacks trees;
  private final Map<String, Artifact> done = new HashMap<>();

  /**
   * @param retrying runs a status call, riding out an unreachable controller (the client's
   *     reconnect policy)
   * @param cacheDir the client's abfleet cache, where module trees are packed
   * @param err where one line per artifact goes
   */
  public SpecUploads(ControllerArtifacts store, Function<Supplier<ArtifactStatus>, ArtifactStatus> retrying,
      Path cacheDir, PrintStream err) {
    this.store = store;
    this.retrying = retrying;
    this.trees = new ModuleTreePacks(cacheDir);
    this.err = err;
  }

  /**
   * The spec with its local artifacts uploaded and renamed; sim-only specs pass unchanged (sim
   * hosts boot nothing).
   *
   * @throws Problem the store refused an artifact (too large, content does not match its hash) or
   *     the upload kept failing; the message names the file and the fix
   */
  public ExperimentSpec upload(ExperimentSpec spec) {
    List<String> hypervisors = spec.getSelector().getHypervisorsCount() > 0
        ? spec.getSelector().getHypervisorsList() : List.of(spec.getSelector().getHypervisor());
    if (hypervisors.equals(List.of("sim"))) {
      return spec;
    }
    ExperimentSpec.Builder b = trees.packAll(spec).toBuilder();
    for (Arm.Builder arm : b.getArmsBuilderList()) {
      if (!arm.getBoot().getModulesTree().getSha256().isEmpty()) {
        arm.getBootBuilder().setModulesTree(uploaded(arm.getBoot().getModulesTree()));
      }
      arm.getBootBuilder().setKernel(uploaded(arm.getBoot().getKernel()));
      arm.getBootBuilder().setInitrd(uploaded(arm.getBoot().getInitrd()));
      arm.getBootBuilder().setGuestImage(uploaded(arm.getBoot().getGuestImage()));
    }
    if (b.getBenchmark().hasWorkload()) {
      var w = b.getBenchmarkBuilder().getWorkloadBuilder();
      w.setFiles(uploaded(w.getFiles()));
    }
    return b.build();
  }

  private Artifact uploaded(Artifact a) {
    Optional<Path> file = localFile(a);
    if (file.isEmpty()) {
      return a;
    }
    return done.computeIfAbsent(a.getSha256(), sha -> send(a, file.get()));
  }

  private Artifact send(Artifact a, Path file) {
    String hex = ArtifactUri.checked(a.getSha256());
    try {
      ArtifactStatus st = retrying.apply(() -> store.status(hex));
      long size = Files.size(file);
      if (st.getComplete()) {
        err.println("abfleet: " + file + " is on the controller already (sha256 " + hex.substring(0, 12) + ")");
      } else {
        ControllerArtifacts.Uploaded u = store.upload(file, hex);
        err.println("abfleet: uploaded " + file + " (" + mib(size) + " MiB, sha256 " + hex.substring(0, 12)
            + ") to the controller" + (u.resentChunks() > 0
                ? "; " + u.resentChunks() + " corrupted chunk(s) detected and re-sent" : ""));
      }
      return a.toBuilder().setUri(ArtifactUri.of(hex)).setSizeBytes(size).build();
    } catch (IOException e) {
      throw new Problem("cannot upload " + file + " to the controller: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Problem("interrupted while uploading " + file + " to the controller");
    }
  }

  /** The artifact's file when it is readable here; empty for hashes only, controller URIs and worker paths. */
  /** The file an artifact names on this machine, if it is one (not one of the controller's). */
  static Optional<Path> localFile(Artifact a) {
    if (a.getSha256().isEmpty() || a.getUri().isEmpty() || ArtifactUri.isController(a.getUri())) {
      return Optional.empty();
    }
    try {
      return ArtifactCache.sourcePath(a.getUri()).filter(p -> Files.isRegularFile(p) && Files.isReadable(p));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static String mib(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.1f", bytes / 1048576.0);
  }
}
