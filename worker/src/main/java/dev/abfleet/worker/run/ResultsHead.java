package dev.abfleet.worker.run;

import dev.abfleet.worker.process.OutputCap;
import dev.abfleet.worker.vm.GuestOutputCaps;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the run procedure reads of a boot's results file: at most
 * {@link GuestOutputCaps#RESULTS_BYTES}, whatever the guest wrote.
 *
 * @param bytes   the head of the file; empty when there is no file or it cannot be read
 * @param overCap present when the file is larger than the cap: how large
 */
record ResultsHead(byte[] bytes, Optional<String> overCap) {

  static ResultsHead read(Path resultsLog) {
    long cap = GuestOutputCaps.RESULTS_BYTES;
    if (resultsLog == null || !Files.exists(resultsLog)) {
      return new ResultsHead(new byte[0], Optional.empty());
    }
    try (InputStream in = Files.newInputStream(resultsLog)) {
      byte[] head = in.readNBytes((int) cap);
      return new ResultsHead(head, Optional.ofNullable(new OutputCap(resultsLog, cap).exceeded(Files.size(resultsLog))));
    } catch (IOException e) {
      return new ResultsHead(new byte[0], Optional.empty());
    }
  }
}
