package dev.abfleet.controller.dashboard;

import static dev.abfleet.controller.dashboard.DashboardPage.esc;

import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every host the scheduler knows: state, class, what it boots now, why an operator drained it
 * and its health, as {@code abfleet hosts}. The lease epoch is for fencing, not for people: it
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
          .append("<th scope=\"col\">Drain reason</th>")
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
        .append("</td><td class=\"left\">").append(esc(hostClass(h))).append("</td>")
        .append("<td class=\"left current\">").append(current(h)).append("</td>")
        .append("<td class=\"left drain-reason\">").append(esc(h.getDrainReason())).append("</td><td>")
        .append(h.getInfraFailures()).append("</td><td>").append(h.getRejectedReports())
        .append("</td><td class=\"left reason\">").append(esc(h.getStateReason()))
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

  /** A link to the experiment whose boots the host runs, or "idle" when none holds it. */
  static String current(Host h) {
    if (h.getLeasedTo().isEmpty()) {
      return "<span class=\"muted\">idle</span>";
    }
    return "<a href=\"/experiments/" + esc(h.getLeasedTo()) + "\">" + esc(h.getLeasedTo()) + "</a>";
  }
}
