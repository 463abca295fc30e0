package dev.abfleet.worker.vm.qemu;

import dev.abfleet.model.VolumeTransports;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An installed virtiofsd and the command line it speaks. Two daemons exist:
 * <ul>
 *   <li>{@link Flavor#RUST}: the maintained daemon (gitlab.com/virtio-fs/virtiofsd, package
 *       {@code virtiofsd} in Debian 13+, Fedora, Ubuntu 24.04+): {@code --shared-dir=DIR},
 *       {@code --cache=auto|always|never}, {@code --sandbox=none} for an unprivileged worker;</li>
 *   <li>{@link Flavor#QEMU}: the C daemon QEMU shipped up to 7.2 ({@code /usr/lib/qemu/virtiofsd}
 *       in Debian 12's qemu-system-common): {@code -o source=DIR}, {@code -o cache=auto|always|none},
 *       and a sandbox that needs root ({@code -o sandbox=chroot}: the shared directory is a
 *       scratch directory made for one boot, so a chroot is all the isolation it needs).</li>
 * </ul>
 * They are told apart by their {@code --help}; the version comes from {@code --version}.
 *
 * @param binary the executable
 * @param flavor its command line
 * @param version "7.2" or "1.10.1"; empty when it did not say
 */
public record VirtiofsDaemon(Path binary, Flavor flavor, String version) {

  /** Cache modes a volume may ask for; each daemon spells "none" its own way. */
  public static final List<String> CACHE_MODES = VolumeTransports.CACHE_MODES;
  /** The cache mode when the arm names none: both daemons' default. */
  public static final String DEFAULT_CACHE = "auto";

  private static final Pattern QEMU_VERSION = Pattern.compile("virtiofsd version (\\d+)\\.(\\d+)");
  private static final Pattern RUST_VERSION = Pattern.compile("virtiofsd (\\d+(?:\\.\\d+)+)");

  /** Which command line a daemon speaks. */
  public enum Flavor {
    RUST("virtiofsd"),
    QEMU("qemu-virtiofsd");

    private final String label;

    Flavor(String label) {
      this.label = label;
    }
  }

  public VirtiofsDaemon {
    Objects.requireNonNull(binary, "binary");
    Objects.requireNonNull(flavor, "flavor");
    version = version == null ? "" : version;
  }

  /**
   * The daemon behind {@code binary}, told from its help and version output; empty when the help
   * names neither command line.
   */
  public static Optional<VirtiofsDaemon> recognise(Path binary, String help, String versionOutput) {
    String v = versionOutput == null ? "" : versionOutput;
    if (help.contains("--shared-dir")) {
      Matcher m = RUST_VERSION.matcher(v);
      return Optional.of(new VirtiofsDaemon(binary, Flavor.RUST, m.find() ? m.group(1) : ""));
    }
    if (help.contains("source=")) {
      Matcher m = QEMU_VERSION.matcher(v);
      return Optional.of(new VirtiofsDaemon(binary, Flavor.QEMU, m.find() ? m.group(1) + "." + m.group(2) : ""));
    }
    return Optional.empty();
  }

  /** What reports record beside the transport: "qemu-virtiofsd 7.2", "virtiofsd 1.10.1". */
  public String label() {
    return version.isEmpty() ? flavor.label : flavor.label + " " + version;
  }

  /** True when this daemon can only run as root (the C daemon's sandboxes both need it). */
  public boolean needsRoot() {
    return flavor == Flavor.QEMU;
  }

  /**
   * The daemon's argv serving {@code sharedDir} on {@code socket} with {@code cache} (one of
   * {@link #CACHE_MODES}).
   *
   * @throws IllegalArgumentException an unknown cache mode
   */
  public List<String> argv(Path socket, Path sharedDir, String cache) {
    String c = cache == null || cache.isEmpty() ? DEFAULT_CACHE : cache;
    if (!CACHE_MODES.contains(c)) {
      throw new IllegalArgumentException("unknown virtio-fs cache mode '" + c + "'; expected one of "
          + String.join(", ", CACHE_MODES));
    }
    return switch (flavor) {
      case RUST -> List.of(binary.toString(), "--socket-path=" + socket, "--shared-dir=" + sharedDir,
          "--cache=" + (c.equals("none") ? "never" : c), "--sandbox=none");
      case QEMU -> List.of(binary.toString(), "--socket-path=" + socket, "-o", "source=" + sharedDir,
          "-o", "cache=" + c, "-o", "sandbox=chroot");
    };
  }
}
