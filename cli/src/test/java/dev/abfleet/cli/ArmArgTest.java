package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ArmArgTest {
  @Test
  void parsesNameKernelAndArgumentsWithEqualsSigns() {
    ArmArg a = ArmArg.parse("--candidate", "slub=/k/vmlinuz:slub_debug=FZPU mitigations=off");
    assertThat(a).isEqualTo(new ArmArg("slub", Path.of("/k/vmlinuz"), "slub_debug=FZPU mitigations=off"));
  }

  @Test
  void argumentsAreOptional() {
    assertThat(ArmArg.parse("--baseline", "stock=vmlinuz").cmdlineExtra()).isEmpty();
  }

  @Test
  void rejectsMissingNameOrKernel() {
    assertThatThrownBy(() -> ArmArg.parse("--baseline", "/boot/vmlinuz")).hasMessageContaining("NAME=KERNEL");
    assertThatThrownBy(() -> ArmArg.parse("--baseline", "a=:quiet")).hasMessageContaining("kernel path is empty");
  }

  @Test
  void rejectsNamesThatWouldBreakReports() {
    assertThatThrownBy(() -> ArmArg.parse("--baseline", "a b=/k")).hasMessageContaining("letters, digits");
  }
}
