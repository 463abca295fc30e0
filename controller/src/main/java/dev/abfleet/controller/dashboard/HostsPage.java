package dev.abfleet.controller.dashboard;

import static dev.abfleet.controller.dashboard.DashboardPage.esc;

import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HostNoise;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every host the scheduler knows: state, class, what it boots now, when its worker last spoke,
 * why an operator drained it, its paired noise and its health, as {@code abfleet hosts}. The lease epoch is for fencing, not for people: it
 * stays in /api/hosts only.
 */
final class HostsPage {
  private HostsPage() {}

  static String render(List<Host> hosts, boolean nightly) {
    StringBuilder main = new StringBuilder("<h1>Hosts</h1>\n");
    long out = hosts.stream().filter(h -> !h.getState().equals("idle")
        && !h.getState().equals("leased")).count();
    main.append("<p>").append(hosts.size()).append(hosts.size() == 1 ? " host" : " hosts")
        .append(", ").append(out).append(" out of service or offline.</p>\n");
    if (hosts.isEmpty()) {
      main.append("<p>No worker has connected yet.</p>\n");
    } else {
      main.append("<table id=\"hosts\">\n<caption>Hosts by id</caption>\n<thead><tr>")
          .append("<th scope=\"col\">Host</th><th scope=\"col\">State</th>")
          .append("<th scope=\"col\">Class</th><th scope=\"col\">Current boot</th>")
          .append("<th scope=\"col\">Last heartbeat</th>")
          .append("<th scope=\"col\">Drain reason</th>")
          .append("<th scope=\"col\">Paired noise</th>")
          .append("<th scope=\"col\">Interfered boots</th>")
          .append("<th scope=\"col\">INFRA failures in a row</th>")
          .append("<th scope=\"col\">Rejected reports</th><th scope=\"col\">Reason</th>")
          .append("</tr></thead>\n<tbody>\n");
      hosts.stream().sorted(java.util.Comparator.comparing(Host::getHostId))
          .forEach(h -> row(h, main));
      main.append("</tbody>\n</table>\n");
    }
    return DashboardPage.page("abfleet: hosts", DashboardPage.Section.HOSTS, nightly, true,
        main.toString());
  }

  private static void row(Host h, StringBuilder out) {
    out.append("<tr id=\"host-").append(esc(h.getHostId())).append("\"><th scope=\"row\">")
        .append(esc(h.getHostId())).append("</th><td class=\"left\"><span class=\"state ")
        .append(esc(h.getState())).append("\">").append(esc(h.getState())).append("</span>")
        .append(h.getConnected() ? "" : " <span class=\"muted\">(disconnected)</span>")
        .append(noisy(h) ? " <span class=\"state noisy\">noisy</span>" : "")
        .append("</td><td class=\"left\">").append(esc(hostClass(h))).append("</td>")
        .append("<td class=\"left current\">").append(current(h)).append("</td>")
        .append("<td class=\"heartbeat\">").append(heartbeat(h)).append("</td>")
        .append("<td class=\"left drain-reason\">").append(esc(h.getDrainReason())).append("</td>")
        .append("<td class=\"noise\">").append(noise(h)).append("</td>")
        .append("<td class=\"interference\">").append(interference(h)).append("</td><td>")
        .append(h.getInfraFailures()).append("</td><td>").append(h.getRejectedReports())
        .append("</td><td class=\"left reason\">").append(esc(reason(h)))
        .append("</td></tr>\n");
  }

  /** "qemu/kvm,tcg x86_64 rack=a": hypervisors with accelerators, arch, labels. */
  static String hostClass(Host h) {
    StringBuilder sb = new StringBuilder();
    for (HypervisorCapability c : h.getHypervisorsList()) {
      sb.append(sb.length() == 0 ? "" : " ").append(c.getName())
          .append(c.getAcceleratorsCount() == 0 ? "" : "/" + String.join(",", c.getAcceleratorsList()));
    }
    sb.append(' ').append(h.getArch());
    for (Map.Entry<String, String> l : new TreeMap<>(h.getLabelsMap()).entrySet()) {
      sb.append(' ').append(l.getKey()).append('=').append(l.getValue());
    }
    return sb.toString().strip();
  }

  /** "0.8 s ago", "3 min ago"; "-" when not known (no live stream). */
  static String heartbeat(Host h) {
    if (!h.hasHeartbeatAgeMs()) {
      return "-";
    }
    long ms = h.getHeartbeatAgeMs();
    if (ms < 60_000) {
      return String.format(Locale.ROOT, "%.1f s ago", ms / 1000.0);
    }
    if (ms < 3_600_000) {
      return (ms / 60_000) + " min ago";
    }
    return (ms / 3_600_000) + " h ago";
  }

  /**
   * "0.84% over 24 pairs" with the measure in a tooltip; "-" when no experiment measured the
   * host yet.
   */
  static String noise(Host h) {
    if (!h.hasNoise() || h.getNoise().getPairs() == 0) {
      return "-";
    }
    HostNoise n = h.getNoise();
    return String.format(Locale.ROOT, "<span title=\"median |paired residual| of ln(candidate/baseline)"
        + " over the host's newest %d A/B pairs\">%.2f%% over %d %s</span>", n.getPairs(),
        n.getMedianResidualPercent(), n.getPairs(), n.getPairs() == 1 ? "pair" : "pairs");
  }

  /**
   * "3 of 10" (interfered of the host's newest boots), the measure in a tooltip; "-" before the
   * host's first boot since the scheduler started.
   */
  static String interference(Host h) {
    if (!h.hasInterference()) {
      return "-";
    }
    return "<span title=\"boots the worker marked interfered (other processes busy on the host during"
        + " the boot) of the host's newest boots\">" + h.getInterference().getInterfered() + " of "
        + h.getInterference().getBoots() + "</span>";
  }

  private static boolean noisy(Host h) {
    return h.hasInterference() && !h.getInterference().getNoisyReason().isEmpty();
  }

  /** Why quarantined, and why flagged noisy. */
  private static String reason(Host h) {
    String noisy = noisy(h) ? "noisy: " + h.getInterference().getNoisyReason() : "";
    return h.getStateReason().isEmpty() ? noisy
        : noisy.isEmpty() ? h.getStateReason() : h.getStateReason() + "; " + noisy;
  }

  /** A link to the experiment whose boots the host runs, or "idle" when none holds it. */
  static String current(Host h) {
    if (h.getLeasedTo().isEmpty()) {
      return "<span class=\"muted\">idle</span>";
    }
    return "<a href=\"/experiments/" + esc(h.getLeasedTo()) + "\">" + esc(h.getLeasedTo()) + "</a>";
  }
}
