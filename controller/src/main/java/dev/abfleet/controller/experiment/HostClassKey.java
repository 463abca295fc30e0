package dev.abfleet.controller.experiment;

import dev.abfleet.controller.fleet.HostCapabilities;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The host class of a boot: which boots may be pooled in one comparison.
 *
 * <p>The key is {@code hypervisor/accelerator} as the boot's telemetry reports them (results of
 * different hypervisors or accelerators are never pooled silently), then, for a guest of
 * another architecture than x86_64, {@code guest=ARCH} (an aarch64 guest under TCG on an x86 host
 * and an x86 guest are never pooled; x86_64 is left unnamed), then, for a benchmark on a
 * host volume, the volume's transport ({@code volume=9p}: 9p and virtio-fs differ by orders of
 * magnitude on metadata, so they are never pooled either), followed by the policy's
 * {@code class_by} dimensions of the host, each {@code name=value}, e.g. {@code qemu/kvm},
 * {@code sim/sim cpu=a}, {@code qemu/tcg volume=9p cpu_model=AMD EPYC 7B13}. The dimensions come from the
 * worker's hello (fingerprint and labels) and are fixed when a block is planned, so a later
 * relabelling of the host does not move recorded pairs between classes.
 *
 * <p>Dimensions: {@code cpu_model} (fingerprint; shown as cpu_model=...), {@code arch},
 * {@code host_kernel} (the host's kernel release), {@code hypervisor_version} (the version number
 * of the hypervisor the boot runs under, e.g. hypervisor_version=7.2.22; {@code qemu_version} is
 * the same dimension under the name it shows), and {@code label:KEY} (the worker's operator
 * label KEY; shown as KEY=value, "-" when the host has no such label). A worker that restarts
 * with a new QEMU says so in its hello, so its later blocks fall into a new class.
 */
public final class HostClassKey {
  /** Prefix of a class_by dimension that names an operator label. */
  public static final String LABEL = "label:";
  /** Dimensions other than labels. */
  public static final Set<String> FACTS = Set.of("cpu_model", "arch", "host_kernel", "hypervisor_version",
      "qemu_version");
  private static final java.util.regex.Pattern VERSION = java.util.regex.Pattern.compile("\\d+(\\.\\d+)+");
  /** The guest architecture a class key leaves unnamed. */
  static final String DEFAULT_GUEST_ARCH = "x86_64";

  private HostClassKey() {}

  /**
   * The host's class_by facts, "name=value" joined by spaces, the hypervisor version that of
   * {@code hypervisor}; empty when none is asked for.
   */
  public static String facts(List<String> classBy, HostCapabilities host, String hypervisor) {
    List<String> parts = new ArrayList<>();
    for (String dim : classBy) {
      String value;
      String name = dim;
      if (dim.startsWith(LABEL)) {
        name = dim.substring(LABEL.length());
        value = host == null ? null : host.labels().get(name);
      } else if (host == null) {
        value = null;
      } else {
        value = switch (dim) {
          case "cpu_model" -> host.cpuModel();
          case "host_kernel" -> host.hostKernel();
          case "hypervisor_version", "qemu_version" -> versionNumber(host.hypervisorVersions().get(hypervisor));
          default -> host.arch();
        };
      }
      parts.add(name + "=" + (value == null || value.isEmpty() ? "-" : value));
    }
    return String.join(" ", parts);
  }

  /** "7.2.22" of "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7)"; the line itself without a number. */
  static String versionNumber(String versionLine) {
    if (versionLine == null) {
      return null;
    }
    java.util.regex.Matcher m = VERSION.matcher(versionLine);
    return m.find() ? m.group() : versionLine.strip();
  }

  /** {@code hypervisor/accelerator}, then the facts after a space when there are any. */
  public static String key(String hypervisor, String accelerator, String facts) {
    return key(hypervisor, accelerator, "", facts);
  }

  /**
   * {@code hypervisor/accelerator}, then {@code volume=TRANSPORT} when the boot ran on a host
   * volume, then the facts, separated by spaces.
   */
  public static String key(String hypervisor, String accelerator, String volumeTransport, String facts) {
    return key(hypervisor, accelerator, "", volumeTransport, facts);
  }

  /** As above, with {@code guest=ARCH} after the accelerator for a guest architecture other than x86_64. */
  public static String key(String hypervisor, String accelerator, String guestArch, String volumeTransport,
      String facts) {
    String base = hypervisor + "/" + accelerator;
    if (guestArch != null && !guestArch.isEmpty() && !guestArch.equals(DEFAULT_GUEST_ARCH)) {
      base += " guest=" + guestArch;
    }
    if (volumeTransport != null && !volumeTransport.isEmpty()) {
      base += " volume=" + volumeTransport;
    }
    return facts == null || facts.isEmpty() ? base : base + " " + facts;
  }

  /** The class a boot ran in; the accelerator part is empty when the boot reported none. */
  public static String of(RunOutcome boot) {
    return key(boot.hypervisor(), boot.accelerator(), boot.guest().guestArch(), boot.guest().volumeTransport(),
        boot.hostFacts());
  }

  /**
   * The class a block on this host is expected to run in: the hypervisor the selector picks for
   * the host, that hypervisor's best probed accelerator and, for a host volume, its first
   * transport (what the worker uses).
   */
  public static String planned(ExperimentSpec spec, HostCapabilities host) {
    String hypervisor = spec.selector().hypervisorFor(host);
    List<String> accels = host == null ? List.of()
        : host.hypervisors().getOrDefault(hypervisor, List.of());
    String guestArch = spec.selector().guestArch();
    boolean nativeGuest = host == null || guestArch.isEmpty() || guestArch.equals(host.arch());
    String accel = accels.isEmpty() ? "" : nativeGuest ? accels.get(0) : accels.contains("tcg") ? "tcg" : "";
    return key(hypervisor, accel, guestArch, spec.selector().volumeTransportFor(host),
        facts(spec.policy().classBy(), host, hypervisor));
  }

  /**
   * True when the experiment asks for a cross-host comparison (class_by dimensions or several
   * hypervisors): its pairs are then planned per class.
   */
  public static boolean crossClass(ExperimentSpec spec) {
    return !spec.policy().classBy().isEmpty() || spec.selector().allowedHypervisors().size() > 1;
  }

  /**
   * The class of each completed pair, in the map's order: that of the first boot (baseline
   * first) that reported an accelerator; when none did (every boot failed early), the class of
   * the host's other pairs; else the class with an empty accelerator part.
   */
  public static String[] ofPairs(Map<Integer, List<RunOutcome>> pairs, String baseline) {
    Map<String, String> byHost = new HashMap<>();
    List<String> known = new ArrayList<>();
    for (List<RunOutcome> boots : pairs.values()) {
      RunOutcome reported = firstWithAccelerator(boots, baseline);
      known.add(reported == null ? null : of(reported));
      if (reported != null) {
        byHost.put(reported.hostId(), of(reported));
      }
    }
    String[] out = new String[pairs.size()];
    int i = 0;
    for (List<RunOutcome> boots : pairs.values()) {
      String cls = known.get(i);
      if (cls == null && !boots.isEmpty()) {
        cls = byHost.getOrDefault(boots.get(0).hostId(), of(boots.get(0)));
      }
      out[i++] = cls;
    }
    return out;
  }

  /** Distinct classes of the pairs, in first-seen order. */
  public static Set<String> distinct(String[] classes) {
    Set<String> seen = new LinkedHashSet<>();
    for (String c : classes) {
      if (c != null) {
        seen.add(c);
      }
    }
    return seen;
  }

  private static RunOutcome firstWithAccelerator(List<RunOutcome> boots, String baseline) {
    return boots.stream().filter(b -> !b.accelerator().isEmpty())
        .min((a, b) -> Boolean.compare(!a.arm().equals(baseline), !b.arm().equals(baseline)))
        .orElse(null);
  }
}
