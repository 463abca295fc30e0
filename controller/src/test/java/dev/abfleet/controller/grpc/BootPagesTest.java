package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.MetricTelemetry;
import dev.abfleet.proto.fleet.v1.ProtocolConstants;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BootPagesTest {
  static final List<String> METRICS =
      List.of("metadata_stat", "seq_read", "seq_write", "rand_read", "rand_write", "fsync_lat");

  /** 2,000 pairs x 2 arms, 6 metrics x 5 iterations per boot, guest counters per metric. */
  static Experiment longExperiment(int pairs) {
    Experiment.Builder e = Experiment.newBuilder().setExperimentId("e-0badc0de").setState("completed")
        .setPairsDone(pairs).setPairsWanted(pairs);
    for (int pair = 0; pair < pairs; pair++) {
      for (String arm : List.of("base", "cand")) {
        Boot.Builder boot = Boot.newBuilder().setRunId("e-0badc0de-p" + pair + "-a0-" + arm).setArm(arm)
            .setHostId("bench-host-07").setPairIndex(pair).setOrderInPair(arm.equals("base") ? 0 : 1)
            .setStatus("ok").setLeaseEpoch(100_000 + pair).setHostClass("qemu/kvm")
            .setConsoleLogSha256("ab".repeat(32))
            .setTelemetry(RunTelemetry.newBuilder().setHostId("bench-host-07").setHypervisor("qemu")
                .setAccelerator("kvm").setBootMs(912).setRunMs(41_234).setKernelRelease("6.12.0-rc3+")
                .setStartedAtMs(1_764_000_000_000L + pair).setEndedAtMs(1_764_000_041_234L + pair));
        for (String metric : METRICS) {
          for (int i = 0; i < 5; i++) {
            boot.addSamples(MetricSample.newBuilder().setMetric(metric).setValue(31_234.567 + i * pair)
                .setUnit("ops/s").setBetter("higher").setIteration(i));
          }
          boot.addGuestCounters(MetricTelemetry.newBuilder().setMetric(metric).setWork(1.2e6)
              .setWorkUnit("ops").putInterrupts("virtio0-requests", 12_345).putInterrupts("LOC", 99_999)
              .setContextSwitches(456_789).setInterruptsTotal(234_567));
        }
        e.addBoots(boot);
      }
    }
    return e.build();
  }

  @Test
  void aLongExperimentIsPastTheMessageLimitWholeAndFitsInPages() {
    Experiment whole = longExperiment(2000);
    assertThat(whole.getSerializedSize()).isGreaterThan(ProtocolConstants.MAX_MESSAGE_BYTES_VALUE);

    List<Boot> boots = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      Experiment page = BootPages.page(whole, 0, token, BootPages.BOOT_BYTES_PER_PAGE);
      assertThat(page.getSerializedSize()).isLessThan(ProtocolConstants.MAX_MESSAGE_BYTES_VALUE);
      boots.addAll(page.getBootsList());
      token = page.getNextBootsPageToken();
      pages++;
    } while (!token.isEmpty());

    assertThat(boots).isEqualTo(whole.getBootsList());
    assertThat(pages).isGreaterThan(1);
  }

  @Test
  void aSmallExperimentIsOnePageAsItIs() {
    Experiment small = longExperiment(3);
    assertThat(BootPages.page(small, 0, "", BootPages.BOOT_BYTES_PER_PAGE)).isSameAs(small);
  }

  @Test
  void honoursThePageSizeAsked() {
    Experiment e = longExperiment(5);
    Experiment first = BootPages.page(e, 4, "", BootPages.BOOT_BYTES_PER_PAGE);
    Experiment last = BootPages.page(e, 4, first.getNextBootsPageToken(), BootPages.BOOT_BYTES_PER_PAGE);
    Experiment rest = BootPages.page(e, 4, last.getNextBootsPageToken(), BootPages.BOOT_BYTES_PER_PAGE);

    assertThat(first.getBootsList()).isEqualTo(e.getBootsList().subList(0, 4));
    assertThat(first.getNextBootsPageToken()).isEqualTo("4");
    assertThat(rest.getBootsList()).isEqualTo(e.getBootsList().subList(8, 10));
    assertThat(rest.getNextBootsPageToken()).isEmpty();
  }

  @Test
  void aBootLargerThanTheBudgetStillComesAloneInItsPage() {
    Experiment e = longExperiment(2);
    Experiment page = BootPages.page(e, 0, "", 10);
    assertThat(page.getBootsCount()).isEqualTo(1);
    assertThat(page.getNextBootsPageToken()).isEqualTo("1");
  }

  @Test
  void refusesATokenItNeverGave() {
    Experiment e = longExperiment(2);
    for (String bad : List.of("x", "-1", "5")) {
      assertThatThrownBy(() -> BootPages.page(e, 0, bad, BootPages.BOOT_BYTES_PER_PAGE))
          .isInstanceOfSatisfying(StatusRuntimeException.class, ex -> assertThat(ex.getStatus().getCode())
              .isEqualTo(Status.Code.INVALID_ARGUMENT))
          .hasMessageContaining("boots_page_token '" + bad + "'");
    }
  }
}
