package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuListTest {

  @Test
  void parsesRangesAndSinglesIntoAscendingCpus() {
    assertThat(CpuList.parse("8-9,0-2,5\n")).contains(List.of(0, 1, 2, 5, 8, 9));
  }

  @Test
  void rejectsTextThatIsNotACpuList() {
    assertThat(CpuList.parse("0-")).isEmpty();
    assertThat(CpuList.parse("3-1")).isEmpty();
    assertThat(CpuList.parse("ff")).isEmpty();
  }

  @Test
  void formatsConsecutiveCpusAsRanges() {
    assertThat(CpuList.format(List.of(5, 0, 1, 2, 9))).isEqualTo("0-2,5,9");
  }
}
