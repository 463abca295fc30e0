package dev.abfleet.bench.sim;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How evenly pairs booted baseline-first (AB) and candidate-first (BA), counted from the boots of
 * finished experiments with two arms. A pair is one block attempt that reported both boots.
 *
 * @param experiments experiments counted
 * @param unbalancedExperiments experiments whose AB and BA counts differ by more than one
 * @param maxOverall the largest |AB - BA| of an experiment
 * @param cells (experiment, host) combinations that ran at least two pairs
 * @param unbalancedCells such combinations whose AB and BA counts differ by more than one
 */
public record PairBalance(int experiments, int unbalancedExperiments, int maxOverall, int cells, int unbalancedCells) {

  public static PairBalance of(List<Experiment> experiments) {
    int unbalanced = 0;
    int maxOverall = 0;
    int cells = 0;
    int unbalancedCells = 0;
    for (Experiment e : experiments) {
      String baseline = e.getSpec().getArmsList().stream().filter(a -> a.getRole().equals("baseline"))
          .map(Arm::getName).findFirst().orElse("");
      Map<String, String[]> pairs = new HashMap<>();
      for (Boot b : e.getBootsList()) {
        String[] pair = pairs.computeIfAbsent(b.getPairIndex() + "/" + b.getLeaseEpoch() + "/" + b.getHostId(),
            k -> new String[3]);
        pair[2] = b.getHostId();
        if (b.getOrderInPair() < 2) {
          pair[b.getOrderInPair()] = b.getArm();
        }
      }
      int[] total = new int[2];
      Map<String, int[]> perHost = new HashMap<>();
      for (String[] pair : pairs.values()) {
        if (pair[0] == null || pair[1] == null) {
          continue;
        }
        int order = pair[0].equals(baseline) ? 0 : 1;
        total[order]++;
        perHost.computeIfAbsent(pair[2], h -> new int[2])[order]++;
      }
      unbalanced += Math.abs(total[0] - total[1]) > 1 ? 1 : 0;
      maxOverall = Math.max(maxOverall, Math.abs(total[0] - total[1]));
      for (int[] c : perHost.values()) {
        if (c[0] + c[1] >= 2) {
          cells++;
          unbalancedCells += Math.abs(c[0] - c[1]) > 1 ? 1 : 0;
        }
      }
    }
    return new PairBalance(experiments.size(), unbalanced, maxOverall, cells, unbalancedCells);
  }
}
