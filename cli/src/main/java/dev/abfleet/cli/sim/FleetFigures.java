package dev.abfleet.cli.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.Locale;

/**
 * What {@code abfleet bench fleet} measured.
 *
 * @param workers simulated hosts started
 * @param connectS from starting the sim workers to the controller listing all of them, s
 * @param reconnects worker streams that ended while the fleet ran (each one reconnects)
 * @param controllerCpuCores the controller process's CPU time over wall time at steady state
 *     (all connected, no experiments), cores
 * @param controllerCpuCoresBusy the same while the experiments ran; NaN without experiments
 * @param controllerRssMib the controller process's resident memory at the end, MiB
 * @param listHostsMaxMs slowest ListHosts answer while the fleet ran (connecting included), ms
 * @param listHostsSteadyMaxMs slowest at steady state (all connected, nothing to run), ms
 * @param listHostsFailures ListHosts calls answered with an error (the controller's ask timed out)
 * @param gapP50Ms median time from a host finishing a block to starting its next, ms; NaN = no
 *     host ran two blocks
 * @param gapP99Ms its 99th percentile (nearest rank), ms
 * @param makespanRatio first block start to last block end over a list schedule of the same
 *     blocks on {@code workers} hosts; NaN without experiments
 * @param droppedCommands sum of {@code abfleet_dropped_commands_total} on the controller's
 *     /metrics; 0 when it has no such metric
 * @param lateReplies {@code abfleet_late_replies_total}: answers that reached an ask after it had
 *     timed out (the command was handled, too late for its caller; not a lost command)
 * @param leasedAfter hosts still leased once every experiment had ended
 * @param experimentsCompleted experiments that ended completed, of {@code experiments}
 */
record FleetFigures(int workers, double connectS, long reconnects, double controllerCpuCores,
    double controllerCpuCoresBusy, double controllerRssMib, double listHostsMaxMs, double listHostsSteadyMaxMs, long listHostsFailures, double gapP50Ms,
    double gapP99Ms, double makespanRatio, long droppedCommands, long lateReplies, long leasedAfter, int experiments,
    int experimentsCompleted, long blocks, String commandLine) {

  /** One JSON object; figures that were not measured (NaN) are null. */
  String json() {
    ObjectNode n = new ObjectMapper().createObjectNode();
    n.put("workers", workers);
    number(n, "connect_s", connectS);
    n.put("reconnects", reconnects);
    number(n, "controller_cpu_cores", controllerCpuCores);
    number(n, "controller_cpu_cores_busy", controllerCpuCoresBusy);
    number(n, "controller_rss_mib", controllerRssMib);
    number(n, "list_hosts_max_ms", listHostsMaxMs);
    number(n, "list_hosts_steady_max_ms", listHostsSteadyMaxMs);
    n.put("list_hosts_failures", listHostsFailures);
    number(n, "gap_p50_ms", gapP50Ms);
    number(n, "gap_p99_ms", gapP99Ms);
    number(n, "makespan_ratio", makespanRatio);
    n.put("dropped_commands", droppedCommands);
    n.put("late_replies", lateReplies);
    n.put("leased_after", leasedAfter);
    n.put("experiments", experiments);
    n.put("experiments_completed", experimentsCompleted);
    n.put("blocks", blocks);
    n.put("command", commandLine);
    return n.toString();
  }

  private static void number(ObjectNode n, String key, double value) {
    if (Double.isNaN(value)) {
      n.putNull(key);
    } else {
      n.put(key, Math.round(value * 1000) / 1000.0);
    }
  }

  void print(PrintStream out) {
    out.println(commandLine);
    out.printf(Locale.ROOT, "workers                 %d%n", workers);
    out.printf(Locale.ROOT, "connect all             %.1f s%n", connectS);
    out.printf(Locale.ROOT, "reconnects              %d%n", reconnects);
    out.printf(Locale.ROOT, "controller CPU, steady  %.2f cores%n", controllerCpuCores);
    if (experiments > 0) {
      out.printf(Locale.ROOT, "controller CPU, busy    %.2f cores%n", controllerCpuCoresBusy);
    }
    out.printf(Locale.ROOT, "controller RSS          %.0f MiB%n", controllerRssMib);
    out.printf(Locale.ROOT, "ListHosts, slowest      %.0f ms (%d failed); at steady state %.0f ms%n", listHostsMaxMs,
        listHostsFailures, listHostsSteadyMaxMs);
    if (experiments > 0) {
      out.printf(Locale.ROOT, "experiments completed   %d of %d (%d blocks)%n", experimentsCompleted, experiments, blocks);
      out.printf(Locale.ROOT, "assignment gap p50/p99  %.0f / %.0f ms%n", gapP50Ms, gapP99Ms);
      out.printf(Locale.ROOT, "makespan / list sched.  %.3f%n", makespanRatio);
      out.printf(Locale.ROOT, "hosts leased after      %d%n", leasedAfter);
    }
    out.printf(Locale.ROOT, "dropped commands        %d%n", droppedCommands);
    out.printf(Locale.ROOT, "late replies            %d (asks answered after their timeout)%n", lateReplies);
  }
}
