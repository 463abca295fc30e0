package dev.abfleet.worker.vm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a host directory is shared into the guest for a {@code volume: host} benchmark, and what
 * the guest needs to mount it: the kernel modules (loaded with their dependencies) and the
 * mount options it uses unless the arm's {@code volume_options} say otherwise.
 *
 * <p>9p's {@code msize} (the largest 9p message, so the largest read or write one request
 * carries) defaults to 512000 bytes: Linux 6.1's virtio transport caps it there (125 ring
 * pages), and a larger request is cut down with only a kernel warning, so the recorded options
 * would not be the ones in effect. Kernels with a larger cap accept {@code msize=} in the arm's
 * {@code volume_options}, which replaces the default.
 */
public enum VolumeTransport {
  /** virtio-9p: QEMU's own file server, in every QEMU build; slow on metadata. */
  NINE_P("9p", "9p", List.of("virtio_pci", "9pnet_virtio", "9p"), "trans=virtio,version=9p2000.L,msize=512000"),
  /** virtio-fs: FUSE over virtio, served by virtiofsd (QEMU) or by the hypervisor (VZ). */
  VIRTIOFS("virtiofs", "virtiofs", List.of("virtio_pci", "virtiofs"), "rw");

  /** The virtio mount tag of the volume, on every hypervisor (VZ's results share is "abfleet"). */
  public static final String TAG = "abfleet-vol";

  private static final Pattern OPTIONS = Pattern.compile("[A-Za-z0-9_.,=:/+-]*");

  private final String wire;
  private final String fsType;
  private final List<String> modules;
  private final String defaultOptions;

  VolumeTransport(String wire, String fsType, List<String> modules, String defaultOptions) {
    this.wire = wire;
    this.fsType = fsType;
    this.modules = modules;
    this.defaultOptions = defaultOptions;
  }

  /** The name on the wire and in reports: "9p" or "virtiofs". */
  public String wire() {
    return wire;
  }

  /** The guest file system type ({@code mount -t}). */
  public String fsType() {
    return fsType;
  }

  /**
   * Modules the guest needs for this transport over PCI, dependencies left to modules.dep;
   * those built into the kernel are skipped. virtio_pci is named because nothing depends on it:
   * without it the device is never found.
   */
  public List<String> modules() {
    return modules;
  }

  public static Optional<VolumeTransport> fromWire(String name) {
    for (VolumeTransport t : values()) {
      if (t.wire.equals(name)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /**
   * The mount options the guest uses: the defaults, then {@code extra} (comma-separated); an
   * extra option replaces a default of the same name ({@code msize=262144} replaces the default
   * msize), and the order is kept otherwise.
   *
   * @throws IllegalArgumentException {@code extra} has characters a kernel command line token or
   *     mount option list cannot carry
   */
  public String mountOptions(String extra) {
    String e = extra == null ? "" : extra.strip();
    if (!OPTIONS.matcher(e).matches()) {
      throw new IllegalArgumentException("volume_options '" + e + "' may only hold letters, digits and _ . , = : / + -"
          + " (comma-separated mount options such as cache=loose)");
    }
    Map<String, String> merged = new LinkedHashMap<>();
    for (String part : (defaultOptions + "," + e).split(",")) {
      if (!part.isEmpty()) {
        int eq = part.indexOf('=');
        merged.put(eq < 0 ? part : part.substring(0, eq), part);
      }
    }
    return String.join(",", new ArrayList<>(merged.values()));
  }
}
