package dev.abfleet.controller.nightly;

import com.google.protobuf.ByteString;
import dev.abfleet.controller.artifact.ArtifactStore;
import dev.abfleet.controller.artifact.StoreException;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Puts files of the controller's own file system into its artifact store and names them there
 * ({@code abfleet:sha256:<hex>}), as {@code abfleet ab --controller} uploads a client's files:
 * workers then fetch them from the controller and need no shared path.
 */
final class StoredArtifacts {
  static final String PREFIX = "abfleet:sha256:";
  private static final int CHUNK = 1 << 20;

  private final ArtifactStore store;

  StoredArtifacts(ArtifactStore store) {
    this.store = store;
  }

  /** True when the store holds the artifact whole. */
  boolean has(String sha256) {
    try {
      return store.status(sha256).complete();
    } catch (StoreException e) {
      return false;
    }
  }

  /** Stores {@code file} (whose hash is {@code sha256}) unless the store has it already. */
  void put(Path file, String sha256) {
    if (has(sha256)) {
      return;
    }
    try (InputStream in = Files.newInputStream(file);
        ArtifactStore.Upload up = store.beginUpload(sha256, Files.size(file))) {
      long offset = up.heldBytes();
      in.skipNBytes(offset);
      byte[] buf = new byte[CHUNK];
      for (int n; (n = in.readNBytes(buf, 0, CHUNK)) > 0; offset += n) {
        up.append(offset, ByteString.copyFrom(buf, 0, n));
      }
      up.finish();
    } catch (StoreException e) {
      if (e.kind() != StoreException.Kind.EXISTS) {
        throw new NightlyProblem("cannot put " + file + " into the controller's artifact store: " + e.getMessage());
      }
    } catch (IOException e) {
      throw new NightlyProblem("cannot read " + file + " (" + e.getMessage() + ")");
    }
  }

  /**
   * The spec with every artifact that is a file here (kernels, initrds, guest images, workload
   * files) stored and named by its hash. Specs of sim hosts boot nothing and pass unchanged.
   */
  ExperimentSpec storeFiles(ExperimentSpec spec) {
    if (simulated(spec)) {
      return spec;
    }
    ExperimentSpec.Builder b = spec.toBuilder();
    for (Arm.Builder arm : b.getArmsBuilderList()) {
      var boot = arm.getBootBuilder();
      boot.setKernel(stored(boot.getKernel()));
      boot.setInitrd(stored(boot.getInitrd()));
      boot.setGuestImage(stored(boot.getGuestImage()));
      if (!boot.getModulesTree().getSha256().isEmpty()) {
        boot.setModulesTree(stored(boot.getModulesTree()));
      }
    }
    if (b.getBenchmark().hasWorkload()) {
      var w = b.getBenchmarkBuilder().getWorkloadBuilder();
      w.setFiles(stored(w.getFiles()));
    }
    return b.build();
  }

  private Artifact stored(Artifact a) {
    Optional<Path> file = localFile(a);
    if (file.isEmpty()) {
      return a;
    }
    put(file.get(), a.getSha256());
    return a.toBuilder().setUri(PREFIX + a.getSha256()).build();
  }

  private static Optional<Path> localFile(Artifact a) {
    String uri = a.getUri();
    if (a.getSha256().isEmpty() || uri.isEmpty() || uri.startsWith(PREFIX)) {
      return Optional.empty();
    }
    Path p = uri.startsWith("file:") ? Path.of(java.net.URI.create(uri)) : Path.of(uri);
    return Files.isRegularFile(p) && Files.isReadable(p) ? Optional.of(p) : Optional.empty();
  }

  static boolean simulated(ExperimentSpec spec) {
    var sel = spec.getSelector();
    return sel.getHypervisorsCount() > 0 ? sel.getHypervisorsList().equals(java.util.List.of("sim"))
        : sel.getHypervisor().equals("sim");
  }
}
