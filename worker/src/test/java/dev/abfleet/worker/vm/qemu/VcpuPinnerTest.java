package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VcpuPinnerTest {

  @TempDir
  Path dir;

  private final List<List<String>> tasksets = Collections.synchronizedList(new ArrayList<>());
  /** Thread id -> the affinity list taskset reads back; absent = the one last set. */
  private final Map<String, String> readBack = new HashMap<>();
  private final Map<String, String> set = new HashMap<>();
  private String setFails;

  /** taskset as util-linux prints it: "pid N's current affinity list: L" (and "new" after a set). */
  private final CommandRunner taskset = (argv, workDir, logName, timeout) -> {
    tasksets.add(argv);
    String tid = argv.get(argv.size() - 1);
    if (argv.get(1).equals("-p")) {
      if (setFails != null) {
        return new RunResult(1, false, false, Duration.ZERO, null, null, "", setFails, null);
      }
      set.put(tid, argv.get(3));
      return ok("pid " + tid + "'s current affinity list: 0-3\npid " + tid + "'s new affinity list: " + argv.get(3));
    }
    return ok("pid " + tid + "'s current affinity list: " + readBack.getOrDefault(tid, set.getOrDefault(tid, "0-3")));
  };

  private static RunResult ok(String stdout) {
    return new RunResult(0, false, false, Duration.ZERO, null, null, stdout, "", null);
  }

  private VcpuPinner pinner(String cpusAllowed) {
    return new VcpuPinner(taskset, name -> Optional.of(Path.of("/usr/bin", name)), () -> cpusAllowed);
  }

  private VcpuPinner.Result pin(VcpuPinner pinner, Path socket, int vcpus) throws InterruptedException {
    return pinner.pin(socket, vcpus, dir, System.nanoTime() + Duration.ofSeconds(20).toNanos(), () -> false);
  }

  @Test
  void pinsEachVcpuThreadToItsOwnCpuThenContinuesTheGuest() throws Exception {
    Path socket = dir.resolve("qmp.sock");
    try (FakeQmp qmp = new FakeQmp(socket, List.of(4101L, 4102L))) {
      VcpuPinner.Result r = pin(pinner("0-3"), socket, 2);

      assertThat(r.problem()).isNull();
      assertThat(r.hostCpus()).containsExactly(1, 2);
      assertThat(qmp.awaitEnd(10)).isTrue();
      assertThat(qmp.commands()).containsExactly("qmp_capabilities", "query-cpus-fast", "cont");
      assertThat(tasksets).containsExactly(
          List.of("/usr/bin/taskset", "-p", "-c", "1", "4101"),
          List.of("/usr/bin/taskset", "-c", "-p", "4101"),
          List.of("/usr/bin/taskset", "-p", "-c", "2", "4102"),
          List.of("/usr/bin/taskset", "-c", "-p", "4102"));
    }
  }

  @Test
  void recordsTheAffinityReadBackAndQuitsWhenItDiffersFromTheOneSet() throws Exception {
    Path socket = dir.resolve("qmp.sock");
    readBack.put("4101", "0-3");
    try (FakeQmp qmp = new FakeQmp(socket, List.of(4101L))) {
      VcpuPinner.Result r = pin(pinner("0-3"), socket, 1);

      assertThat(r.pinned()).isFalse();
      assertThat(r.problem()).isEqualTo("vCPU 0 (thread 4101) reads back affinity '0-3' after pinning to CPU 1");
      assertThat(qmp.awaitEnd(10)).isTrue();
      assertThat(qmp.commands()).containsExactly("qmp_capabilities", "query-cpus-fast", "quit");
    }
  }

  @Test
  void failsWithTasksetsMessageWhenTheKernelRefuses() throws Exception {
    Path socket = dir.resolve("qmp.sock");
    setFails = "taskset: failed to set pid 4101's affinity: Operation not permitted";
    try (FakeQmp qmp = new FakeQmp(socket, List.of(4101L))) {
      VcpuPinner.Result r = pin(pinner("0-1"), socket, 1);

      assertThat(r.problem()).isEqualTo("taskset -p -c 1 4101 (vCPU 0) failed (exit 1): " + setFails);
      assertThat(qmp.awaitEnd(10)).isTrue();
      assertThat(qmp.commands()).doesNotContain("cont").endsWith("quit");
    }
  }

  @Test
  void refusesVcpusThatShareOneHostThread() throws Exception {
    Path socket = dir.resolve("qmp.sock");
    try (FakeQmp qmp = new FakeQmp(socket, List.of(4101L, 4101L))) {
      VcpuPinner.Result r = pin(pinner("0-3"), socket, 2);

      assertThat(r.problem()).contains("vCPUs share a host thread ([4101, 4101])");
      assertThat(tasksets).isEmpty();
      assertThat(qmp.awaitEnd(10)).isTrue();
      assertThat(qmp.commands()).containsExactly("qmp_capabilities", "query-cpus-fast", "quit");
    }
  }

  @Test
  void refusesWhenQemuReportsFewerVcpusThanBooted() throws Exception {
    Path socket = dir.resolve("qmp.sock");
    try (FakeQmp qmp = new FakeQmp(socket, List.of(4101L))) {
      VcpuPinner.Result r = pin(pinner("0-3"), socket, 2);

      assertThat(r.problem()).isEqualTo("query-cpus-fast listed 1 vCPUs, expected 2");
    }
  }

  @Test
  void hostWithFewerCpusThanVcpusFailsBeforeTouchingQemu() throws Exception {
    Path socket = dir.resolve("qmp.sock");
    try (FakeQmp qmp = new FakeQmp(socket, List.of(4101L, 4102L, 4103L, 4104L))) {
      VcpuPinner.Result r = pin(pinner("0-1"), socket, 4);

      assertThat(r.problem()).isEqualTo("this host has 2 usable CPUs (cpuset 0-1) and cannot pin 4 vCPUs to one"
          + " each; run the arm on a host with at least 4 CPUs, or with fewer vCPUs");
      assertThat(qmp.commands()).isEmpty();
      assertThat(tasksets).isEmpty();
    }
  }

  @Test
  void missingTasksetNamesThePackage() throws Exception {
    VcpuPinner pinner = new VcpuPinner(taskset, name -> Optional.empty(), () -> "0-1");

    VcpuPinner.Result r = pin(pinner, dir.resolve("qmp.sock"), 1);

    assertThat(r.problem()).isEqualTo("taskset not found: apt-get install util-linux");
  }

  @Test
  void stopsWaitingForTheSocketOnceQemuHasExited() throws Exception {
    VcpuPinner.Result r = pinner("0-1").pin(dir.resolve("qmp.sock"), 1, dir,
        System.nanoTime() + Duration.ofSeconds(60).toNanos(), () -> true);

    assertThat(r.problem()).startsWith("QEMU exited before its QMP socket");
  }

  @Test
  void leavesTheLowestCpuFreeWhenThereAreMoreCpusThanVcpus() {
    assertThat(VcpuPinner.choose("0-1", 1).cpus()).containsExactly(1);
    assertThat(VcpuPinner.choose("4-7,9", 2).cpus()).containsExactly(5, 6);
  }

  @Test
  void usesEveryCpuWhenThereAreExactlyAsManyAsVcpus() {
    assertThat(VcpuPinner.choose("0-1", 2).cpus()).containsExactly(0, 1);
  }

  @Test
  void unreadableCpusetIsAProblemNotACrash() {
    assertThat(VcpuPinner.choose("", 1).problem()).startsWith("cannot tell which CPUs this worker may use");
  }

  @Test
  void readsTheCpuListAtTheEndOfTasksetsLastLine() {
    assertThat(VcpuPinner.affinity("pid 7's current affinity list: 0-3\npid 7's new affinity list: 2\n"))
        .contains(List.of(2));
    assertThat(VcpuPinner.affinity("taskset: failed to get pid 7's affinity: No such process")).isEmpty();
  }
}
