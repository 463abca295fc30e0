package dev.abfleet.worker.vm.qemu;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.vm.VolumeTransport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which host-volume transports QEMU can offer on this host, preferred first:
 * <ul>
 *   <li>{@code virtiofs} when a virtiofsd is installed ({@link #VIRTIOFSD_CANDIDATES}: the
 *       maintained Rust daemon or QEMU's own C daemon, see {@link VirtiofsDaemon}; the C daemon
 *       only when the worker runs as root) and QEMU has the {@code vhost-user-fs-pci} device;</li>
 *   <li>{@code 9p} when QEMU has {@code virtio-9p-pci} (QEMU serves it; nothing else needed).</li>
 * </ul>
 * Both are told from {@code qemu-system-x86_64 -device help} and the daemon's {@code --help}
 * and {@code --version},
 * a fraction of a second, so the probe is kept in memory per worker run, not on disk.
 *
 * @param transports usable transports, preferred first (wire names)
 * @param virtiofsd the daemon to start for virtiofs; null when virtiofs is not usable
 * @param reasons why each transport that is not usable was left out
 */
public record VolumeProbe(List<String> transports, VirtiofsDaemon virtiofsd, Map<String, String> reasons) {

  /** Where virtiofsd is looked for: PATH, then where distributions install it. */
  public static final List<String> VIRTIOFSD_CANDIDATES =
      List.of("virtiofsd", "/usr/libexec/virtiofsd", "/usr/lib/qemu/virtiofsd");

  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern DEVICE_NAME = Pattern.compile("^name \"([^\"]+)\"");

  public VolumeProbe {
    transports = List.copyOf(transports);
    reasons = Map.copyOf(reasons);
  }

  /**
   * Probes with {@code qemu} (a qemu-system binary), as the user this JVM runs as.
   *
   * @param which resolves a program name or absolute path to an executable, empty when absent
   */
  public static VolumeProbe probe(Path qemu, Function<String, Optional<Path>> which, CommandRunner runner,
      Path scratch) {
    return probe(qemu, which, runner, scratch, runsAsRoot());
  }

  /** As above; {@code root} says whether daemons that need root can run here. */
  static VolumeProbe probe(Path qemu, Function<String, Optional<Path>> which, CommandRunner runner, Path scratch,
      boolean root) {
    Set<String> devices = devices(output(runner, List.of(qemu.toString(), "-device", "help"), scratch, "qemu-devices"));
    List<String> transports = new ArrayList<>();
    Map<String, String> reasons = new LinkedHashMap<>();
    VirtiofsDaemon daemon = null;
    Optional<Path> found = VIRTIOFSD_CANDIDATES.stream().map(which).flatMap(Optional::stream).findFirst();
    if (!devices.contains("vhost-user-fs-pci")) {
      reasons.put(VolumeTransport.VIRTIOFS.wire(), qemu + " has no vhost-user-fs-pci device");
    } else if (found.isEmpty()) {
      reasons.put(VolumeTransport.VIRTIOFS.wire(), "no virtiofsd in PATH, /usr/libexec or /usr/lib/qemu:"
          + " install virtiofsd (Debian 13+, Fedora, Ubuntu 24.04+: package virtiofsd; Debian 12: qemu-system-common)");
    } else {
      Path binary = found.get();
      Optional<VirtiofsDaemon> d = VirtiofsDaemon.recognise(binary,
          output(runner, List.of(binary.toString(), "--help"), scratch, "virtiofsd-help"),
          output(runner, List.of(binary.toString(), "--version"), scratch, "virtiofsd-version"));
      if (d.isEmpty()) {
        reasons.put(VolumeTransport.VIRTIOFS.wire(), binary + " takes neither --shared-dir (virtiofsd) nor"
            + " -o source= (QEMU's virtiofsd): install the maintained virtiofsd (gitlab.com/virtio-fs/virtiofsd)");
      } else if (d.get().needsRoot() && !root) {
        reasons.put(VolumeTransport.VIRTIOFS.wire(), d.get().label() + " (" + binary + ") runs only as root:"
            + " run the worker as root, or install the maintained virtiofsd, which runs unprivileged");
      } else {
        transports.add(VolumeTransport.VIRTIOFS.wire());
        daemon = d.get();
      }
    }
    if (devices.contains("virtio-9p-pci")) {
      transports.add(VolumeTransport.NINE_P.wire());
    } else {
      reasons.put(VolumeTransport.NINE_P.wire(), qemu + " has no virtio-9p-pci device (built without virtfs)");
    }
    return new VolumeProbe(transports, daemon, reasons);
  }

  /** True when this process runs as root (uid 0): /proc/self belongs to the process's user. */
  static boolean runsAsRoot() {
    try {
      return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return false;
    }
  }

  /** Device names in {@code -device help} output (lines {@code name "virtio-9p-pci", bus PCI, ...}). */
  static Set<String> devices(String deviceHelp) {
    Set<String> names = new LinkedHashSet<>();
    for (String line : deviceHelp.split("\n")) {
      Matcher m = DEVICE_NAME.matcher(line.strip());
      if (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  /** The probe of a host without QEMU. */
  static VolumeProbe none(String reason) {
    return new VolumeProbe(List.of(), null,
        Map.of(VolumeTransport.VIRTIOFS.wire(), reason, VolumeTransport.NINE_P.wire(), reason));
  }

  /** Whole stdout (and stderr: old daemons print help there) of a command; empty when it did not run. */
  private static String output(CommandRunner runner, List<String> argv, Path scratch, String logName) {
    try {
      Files.createDirectories(scratch);
      RunResult r = runner.run(argv, scratch, logName, TIMEOUT);
      if (r.launchError() != null || r.timedOut() || r.interrupted()) {
        return "";
      }
      StringBuilder s = new StringBuilder();
      for (Path p : new Path[] {r.stdout(), r.stderr()}) {
        if (p != null && Files.isRegularFile(p)) {
          s.append(Files.readString(p, StandardCharsets.UTF_8)).append('\n');
        }
      }
      if (s.isEmpty()) {
        s.append(r.stdoutTail()).append('\n').append(r.stderrTail());
      }
      return s.toString();
    } catch (IOException | java.io.UncheckedIOException e) {
      return "";
    }
  }
}
