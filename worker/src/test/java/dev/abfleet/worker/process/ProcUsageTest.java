package dev.abfleet.worker.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading a process's CPU time and threads from /proc/PID/stat. */
class ProcUsageTest {

  @Test
  void readsUserPlusSystemTicksAndThreadsAfterACommandNameWithSpacesAndParentheses() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    // cutime cstime priority nice num_threads ...
    String stat = "4242 (virtio fs) d) S 1 4242 4242 0 -1 4194560 120 0 0 0 37 5 0 0 20 0 7 0 1234 0";

    assertThat(ProcUsage.parseStat(stat)).contains(new ProcUsage(420, 7));
  }

  @Test
  void givesNothingForATruncatedLine() {
    assertThat(ProcUsage.parseStat("4242 (x) S 1 2 3")).isEmpty();
    assertThat(ProcUsage.parseStat("garbage")).isEmpty();
  }

  @Test
  void readsThisJvmWithSeveralThreads() {
    Optional<ProcUsage> self = ProcUsage.read(ProcessHandle.current().pid());

    assertThat(self).isPresent();
    assertThat(self.get().threads()).isGreaterThan(1);
  }

  @Test
  void readsNothingForAProcessThatIsGone() {
    assertThat(ProcUsage.read(Integer.MAX_VALUE)).isEmpty();
  }
}
