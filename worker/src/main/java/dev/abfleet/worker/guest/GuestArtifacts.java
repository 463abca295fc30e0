package dev.abfleet.worker.guest;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.BootSpec;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Workload;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.KernelImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the guests of a spec need, made here before it is submitted, so that workers only stage
 * content-addressed files and never compile (a macOS worker cannot): each arm's guest
 * architecture, read from its kernel; the guest image for that architecture (init, busybox,
 * harness), built once and cached by hash; and a workload directory packed as an image layer.
 * An arm with its own initrd gets no image. Simulated hosts boot nothing: their specs pass
 * unchanged.
 *
 * <p>The image and the packed workload are named by their path here, like the kernels: workers
 * stage them from that path.
 *
 * <p>Used by the CLI before it submits, and by the controller (handed in by the process that
 * starts it) before it submits a nightly schedule's run.
 */
public final class GuestArtifacts {
  private GuestArtifacts() {}

  /** Why a spec's guest artifacts cannot be made here; the message names the fix. */
  public static final class Unprepared extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unprepared(String message) {
      super(message);
    }
  }

  /**
   * The spec with every arm's {@code arch} and {@code guest_image} and the workload's packed
   * files filled in where they were empty.
   *
   * @throws Unprepared an image cannot be built here (with the fix), or the workload cannot be packed
   */
  public static ExperimentSpec prepare(ExperimentSpec spec, Path cacheDir) {
    List<String> hypervisors = spec.getSelector().getHypervisorsCount() > 0
        ? spec.getSelector().getHypervisorsList() : List.of(spec.getSelector().getHypervisor());
    if (hypervisors.equals(List.of("sim"))) {
      return spec;
    }
    ExperimentSpec.Builder b = spec.toBuilder();
    Map<String, Artifact> images = new HashMap<>();
    for (Arm.Builder arm : b.getArmsBuilderList()) {
      BootSpec.Builder boot = arm.getBootBuilder();
      if (boot.getArch().isEmpty()) {
        kernelArch(boot.getKernel().getUri()).ifPresent(boot::setArch);
      }
      boolean ownImage = !boot.getInitrd().getSha256().isEmpty() || !boot.getGuestImage().getSha256().isEmpty();
      if (!ownImage && !boot.getArch().isEmpty()) {
        boot.setGuestImage(images.computeIfAbsent(boot.getArch(), arch -> image(arch, cacheDir)));
      }
    }
    if (b.getBenchmark().hasWorkload() && b.getBenchmark().getWorkload().getFiles().getSha256().isEmpty()) {
      Workload.Builder w = b.getBenchmarkBuilder().getWorkloadBuilder();
      w.setFiles(packed(Path.of(w.getFiles().getUri()), cacheDir));
    }
    return b.build();
  }

  /** The architecture of a kernel readable here; empty when it is not (a path on the workers only). */
  private static Optional<String> kernelArch(String uri) {
    Optional<Path> kernel;
    try {
      kernel = ArtifactCache.sourcePath(uri);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (kernel.isEmpty() || !Files.isReadable(kernel.get())) {
      return Optional.empty();
    }
    KernelImage.Inspection k = KernelImage.inspect(kernel.get());
    return k.ok() ? Optional.ofNullable(k.arch()) : Optional.empty();
  }

  private static Artifact image(String arch, Path cacheDir) {
    try {
      GuestImage.Built built = GuestImage.base(cacheDir, arch);
      return artifact(built.sha256(), built.path());
    } catch (GuestImageException e) {
      throw new Unprepared("cannot build the " + arch + " guest image here: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unprepared("interrupted while building the " + arch + " guest image");
    }
  }

  private static Artifact packed(Path dir, Path cacheDir) {
    try {
      WorkloadPack.Packed p = WorkloadPack.pack(dir, cacheDir);
      return artifact(p.sha256(), p.path());
    } catch (WorkloadPackException e) {
      throw new Unprepared(e.getMessage());
    }
  }

  private static Artifact artifact(String sha256, Path path) {
    long size;
    try {
      size = Files.size(path);
    } catch (IOException e) {
      size = 0;
    }
    return Artifact.newBuilder().setSha256(sha256).setUri(path.toAbsolutePath().toString()).setSizeBytes(size).build();
  }
}
