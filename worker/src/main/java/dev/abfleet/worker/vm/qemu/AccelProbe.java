package dev.abfleet.worker.vm.qemu;

import java.util.List;
import java.util.Map;

/**
 * What the accelerator probe found.
 *
 * @param working accelerators that ran the probe guest, best first ({@code [kvm, tcg]} or {@code [tcg]})
 * @param reasons why each rejected accelerator was rejected, keyed by accelerator name
 */
public record AccelProbe(List<String> working, Map<String, String> reasons) {

  public AccelProbe {
    working = List.copyOf(working);
    reasons = Map.copyOf(reasons);
  }

  /** The accelerator to use, or null when none works. */
  public String best() {
    return working.isEmpty() ? null : working.get(0);
  }
}
