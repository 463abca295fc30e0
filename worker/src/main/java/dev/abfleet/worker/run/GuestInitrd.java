package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.guest.GuestArch;
import dev.abfleet.worker.guest.GuestImage;
import dev.abfleet.worker.guest.GuestImageException;
import dev.abfleet.worker.guest.InitramfsLayers;
import dev.abfleet.worker.modules.GuestModule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The initramfs of one boot: the arm's own initrd as it is, or a guest image with the boot's
 * modules and extra layers on top. The guest image is the one the run carries (staged by hash
 * like the kernel and checked to be for the guest's architecture) or, on a worker that builds
 * images, this host's own build of it.
 */
final class GuestInitrd {

  /** Builds the guest image for one architecture on this host. */
  @FunctionalInterface
  interface Builder {
    GuestImage.Built base(String arch) throws GuestImageException, InterruptedException;
  }

  /** What the boot gets. */
  sealed interface Outcome {
    /**
     * @param initrd the file the VM boots with
     * @param guestImageSha256 the guest image's SHA-256 (before modules and layers); empty for an
     *     arm's own initrd
     */
    record Ready(Path initrd, String guestImageSha256) implements Outcome {}

    /** @param message why the run cannot boot as configured, one line: a CONFIG failure */
    record Refused(String message) implements Outcome {}
  }

  /**
   * The guest architecture of a boot, or (arch null) why the run cannot boot: one line, a
   * CONFIG failure.
   */
  record Arch(String arch, Optional<String> problem) {
    static Arch of(String arch) {
      return new Arch(arch, Optional.empty());
    }

    static Arch refused(String problem) {
      return new Arch(null, Optional.of(problem));
    }
  }

  private final ArtifactCache cache;
  private final Path home;
  private final boolean buildsImages;
  private final Builder builder;

  /**
   * @param home abfleet cache root; composed images go below it
   * @param buildsImages false = refuse runs that carry no guest image
   */
  GuestInitrd(ArtifactCache cache, Path home, boolean buildsImages, Builder builder) {
    this.cache = cache;
    this.home = home;
    this.buildsImages = buildsImages;
    this.builder = builder;
  }

  /**
   * The run's architecture when it names one, else the kernel's, else the host's (an image that
   * is neither a bzImage nor an arm64 Image; the driver then reports it).
   *
   * @param kernelArch what {@link dev.abfleet.worker.artifact.KernelImage#inspect} found; null = not recognised
   */
  static Arch guestArch(RunAssignment run, String kernelArch, String hostArch) {
    String wanted = run.getBoot().getArch();
    if (wanted.isEmpty()) {
      return Arch.of(kernelArch != null ? kernelArch : hostArch);
    }
    if (GuestArch.fromWire(wanted).isEmpty()) {
      return Arch.refused("run " + run.getRunId() + " asks for unknown guest arch '" + wanted
          + "'; expected x86_64 or aarch64");
    }
    if (kernelArch != null && !kernelArch.equals(wanted)) {
      return Arch.refused("run " + run.getRunId() + " is for " + wanted + " but its kernel " + run.getBoot().getKernel().getUri()
          + " is an " + kernelArch + " image; give the arm a kernel built for " + wanted);
    }
    return Arch.of(wanted);
  }

  /**
   * The initramfs for {@code run}.
   *
   * @param modules kernel modules /init loads, in order (ignored for an arm's own initrd)
   * @param extraLayers gzip-compressed newc archives appended after the modules (also to an arm's own initrd)
   * @throws IOException or GuestImageException: staging or building failed (INFRA)
   */
  Outcome prepare(RunAssignment run, String guestArch, List<GuestModule> modules, List<Path> extraLayers)
      throws IOException, GuestImageException, InterruptedException {
    if (!run.getBoot().getInitrd().getSha256().isEmpty()) {
      Path own = cache.stage(run.getBoot().getInitrd().getSha256(), run.getBoot().getInitrd().getUri());
      return new Outcome.Ready(extraLayers.isEmpty() ? own : InitramfsLayers.compose(home, own, List.of(), extraLayers), "");
    }
    Path base;
    String sha256;
    if (!run.getBoot().getGuestImage().getSha256().isEmpty()) {
      sha256 = run.getBoot().getGuestImage().getSha256().toLowerCase(Locale.ROOT);
      base = cache.stage(sha256, run.getBoot().getGuestImage().getUri());
      Optional<String> problem = archProblem(sha256, GuestImage.archOf(base), guestArch, run.getBoot().getGuestImage().getUri());
      if (problem.isPresent()) {
        return new Outcome.Refused(problem.get());
      }
    } else if (buildsImages) {
      GuestImage.Built built = builder.base(guestArch);
      base = built.path();
      sha256 = built.sha256();
    } else {
      return new Outcome.Refused("this worker does not build guest images (--no-image-build) and run "
          + run.getRunId() + " carries none; submit with abfleet ab/nightly/bisect, which attach one");
    }
    return new Outcome.Ready(InitramfsLayers.compose(home, base, modules, extraLayers), sha256);
  }

  /** Why a staged guest image cannot boot a {@code guestArch} kernel, if it cannot. */
  static Optional<String> archProblem(String sha256, Optional<String> imageArch, String guestArch, String uri) {
    String name = "guest image " + sha256.substring(0, Math.min(12, sha256.length()));
    if (imageArch.isEmpty()) {
      return Optional.of(name + " (" + uri + ") is not a guest image: its first archive holds no bin/busybox of"
          + " x86_64 or aarch64; attach one made by abfleet");
    }
    if (!imageArch.get().equals(guestArch)) {
      return Optional.of(name + " is for " + imageArch.get() + " but the kernel is " + guestArch
          + "; attach the " + guestArch + " guest image (abfleet ab/nightly/bisect pick it from the kernel)");
    }
    return Optional.empty();
  }
}
