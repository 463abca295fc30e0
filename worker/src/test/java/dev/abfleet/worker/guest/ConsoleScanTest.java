package dev.abfleet.worker.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Console excerpts in the formats Linux 6.1 prints them (kernel/panic.c, arch/x86/kernel/dumpstack.c,
 * arch/x86/mm/fault.c, kernel/hung_task.c, kernel/locking/lockdep.c, mm/kasan/report.c).
 */
class ConsoleScanTest {

  private static final ConsoleScan SCAN = ConsoleScan.defaults();

  /** Lines of a clean Debian 6.1 boot under QEMU TCG that look like problems but are not. */
  private static final String CLEAN = """
      [    0.000000] Linux version 6.1.0-18-cloud-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)
      [    0.000000] Command line: console=ttyS0 quiet panic=-1 loglevel=5
      [    0.012345] [Firmware Bug]: TSC doesn't count with P0 frequency!
      [    0.051000] RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable to RETBleed attacks, data leaks possible!
      [    0.061000] Spectre V2 : WARNING: Unprivileged eBPF is enabled with eIBRS on, data leaks possible via Spectre v2 BHB attacks!
      [    0.210000] ACPI Warning: SystemIO range 0x0000000000000600-0x000000000000063F conflicts with OpRegion (20220331/utaddress-204)
      [    0.300000] ACPI BIOS Error (bug): Could not resolve symbol [\\_SB.PCI0.LPCB.HEC.ECAV], AE_NOT_FOUND (20220331/psargs-330)
      [    0.400000] x86/cpu: User Mode Instruction Prevention (UMIP) activated
      [    0.500000] kasan: KernelAddressSanitizer initialized (generic)
      [    0.600000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
      [    0.600001] ... MAX_LOCKDEP_SUBCLASSES:  8
      DEBUG: fleetbench starting
      abfleet: harness done\r
      """;

  @Test
  void reportsNothingOnACleanBootWithLookalikes() {
    assertEquals(ConsoleScan.Findings.NONE, SCAN.scan(CLEAN));
  }

  @Test
  void findsAWarnOnAndItsStackTrace() {
    String warn = """
        [    1.912345] ------------[ cut here ]------------
        [    1.912400] WARNING: CPU: 0 PID: 1 at init/main.c:1530 abfleet_warn_init+0x11/0x20
        [    1.912500] Modules linked in:
        [    1.912600] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.1.76 #1
        [    1.912700] RIP: 0010:abfleet_warn_init+0x11/0x20
        [    1.912800] Call Trace:
        [    1.912900]  <TASK>
        [    1.913000]  do_one_initcall+0x41/0x200
        [    1.913100]  </TASK>
        [    1.913200] ---[ end trace 0000000000000000 ]---
        """;
    var f = SCAN.scan(warn);
    assertEquals(2, f.count());
    assertEquals(List.of("[    1.912400] WARNING: CPU: 0 PID: 1 at init/main.c:1530 abfleet_warn_init+0x11/0x20",
        "[    1.912800] Call Trace:"), f.lines());
  }

  @Test
  void findsAWarningWithoutTimestamps() {
    assertEquals(1, SCAN.scan("WARNING: CPU: 1 PID: 77 at fs/fuse/dev.c:301 fuse_request_end+0x1a/0x40\n").count());
  }

  @Test
  void findsANullPointerOops() {
    String oops = """
        [   12.100000] BUG: kernel NULL pointer dereference, address: 0000000000000008
        [   12.100100] #PF: supervisor read access in kernel mode
        [   12.100200] Oops: 0000 [#1] PREEMPT SMP NOPTI
        [   12.100300] Call Trace:
        """;
    assertEquals(3, SCAN.scan(oops).count());
  }

  @Test
  void findsABugOnAndAnArm64Trace() {
    assertEquals(1, SCAN.scan("[    3.0] kernel BUG at mm/slub.c:4321!\n").count());
    assertEquals(1, SCAN.scan("[    3.1] Call trace:\n").count());
    assertEquals(1, SCAN.scan("[    3.2] Internal error: Oops: 96000004 [#1] PREEMPT SMP\n").count());
  }

  @Test
  void findsAHungTask() {
    String hung = """
        [  243.123456] INFO: task kworker/u4:2:57 blocked for more than 120 seconds.
        [  243.123500]       Not tainted 6.1.0-18-amd64 #1
        [  243.123600] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.
        """;
    var f = SCAN.scan(hung);
    assertEquals(1, f.count());
    assertTrue(f.lines().get(0).contains("blocked for more than 120 seconds"));
  }

  @Test
  void findsLockdepReports() {
    String lockdep = """
        [    5.000000] ======================================================
        [    5.000001] WARNING: possible circular locking dependency detected
        [    5.000002] 6.1.76 #1 Not tainted
        [    5.000003] ------------------------------------------------------
        [    6.000000] ============================================
        [    6.000001] WARNING: possible recursive locking detected
        [    7.000000] ================================
        [    7.000001] WARNING: inconsistent lock state
        """;
    assertEquals(3, SCAN.scan(lockdep).count());
  }

  @Test
  void findsKasanAndUbsanReports() {
    String kasan = """
        [    8.000000] ==================================================================
        [    8.000001] BUG: KASAN: slab-out-of-bounds in fuse_dev_do_read+0x123/0x456
        [    8.000002] Read of size 8 at addr ffff888003c1a1f8 by task fleetbench/88
        [    9.000000] UBSAN: shift-out-of-bounds in fs/fuse/inode.c:123:45
        """;
    assertEquals(2, SCAN.scan(kasan).count());
  }

  @Test
  void countsEveryLineButKeepsTheFirstTwentyCut() {
    String line = "[    1.0] WARNING: CPU: 0 PID: 1 at x.c:1 f+0x1/0x2 " + "x".repeat(400);
    var f = SCAN.scan((line + "\r\n").repeat(25));
    assertEquals(25, f.count());
    assertEquals(ConsoleScan.MAX_LINES, f.lines().size());
    assertEquals(ConsoleScan.MAX_LINE_CHARS, f.lines().get(0).length());
  }

  @Test
  void usesGivenPatternsInsteadOfTheDefaults() {
    var scan = ConsoleScan.of(List.of("rcu: INFO: .* detected stalls"));
    assertEquals(0, scan.scan("[ 1.0] WARNING: CPU: 0 PID: 1 at x.c:1 f\n").count());
    assertEquals(1, scan.scan("[ 30.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n").count());
  }

  @Test
  void rejectsAnInvalidPatternNamingIt() {
    var e = assertThrows(IllegalArgumentException.class, () -> ConsoleScan.of(List.of("Oops[")));
    assertTrue(e.getMessage().contains("'Oops['"), e.getMessage());
    assertTrue(ConsoleScan.problem(List.of(" ")).orElseThrow().contains("empty"));
  }
}
