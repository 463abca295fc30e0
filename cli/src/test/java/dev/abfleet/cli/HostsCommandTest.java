package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HostFingerprint;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostsCommandTest {
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(new PrintWriter(err, true), args);
  }

  static Host host(String id, String state) {
    return Host.newBuilder().setHostId(id).setState(state).setArch("x86_64").setCpus(8)
        .setMemoryMib(16384).putLabels("pool", "ci").setConnected(!state.equals("offline"))
        .addHypervisors(HypervisorCapability.newBuilder().setName("qemu").addAccelerators("kvm")
            .addAccelerators("tcg").setVersion("7.2.0"))
        .setFingerprint(HostFingerprint.newBuilder().setCpuModel("EPYC").setHostKernel("6.1.0"))
        .build();
  }

  @Test
  void tablePrintsOneAlignedLinePerHostWithLeaseAndEpoch() {
    var leased = host("h1", "leased").toBuilder().setLeasedTo("e-1").setLeaseEpoch(4).setHeartbeatAgeMs(840)
        .setNoise(dev.abfleet.proto.fleet.v1.HostNoise.newBuilder().setMedianResidualPercent(1.234).setPairs(12))
        .build();

    String table = HostsCommand.table(List.of(leased, host("host-22", "offline")), false);

    assertThat(table).isEqualTo("""
        HOST     STATE    ARCH    HYPERVISORS    CPUS  MEMORY     LABELS   LEASED_TO/EPOCH  HEARD     NOISE     INTERFERED
        h1       leased   x86_64  qemu(kvm,tcg)  8     16384 MiB  pool=ci  e-1/4            0.8s ago  1.23%/12  -
        host-22  offline  x86_64  qemu(kvm,tcg)  8     16384 MiB  pool=ci  -                -         -         -
        """);
  }

  @Test
  void wideTableAddsTheFingerprintAndReasonsFollow() {
    var q = host("h1", "quarantined").toBuilder().setConnected(false)
        .setStateReason("3 INFRA failures in a row").build();

    String table = HostsCommand.table(List.of(q), true);

    assertThat(table).contains("quarantined (offline)").contains("EPYC").contains("qemu=7.2.0")
        .endsWith("h1: quarantined: 3 INFRA failures in a row\n");
  }

  @Test
  void aNoisyHostSaysSoInItsStateAndWhyBelow() {
    var noisy = host("h1", "idle").toBuilder().setInterference(dev.abfleet.proto.fleet.v1.HostInterference
        .newBuilder().setBoots(10).setInterfered(4).setNoisyReason("4 of its last 10 boots interfered")).build();
    var quiet = host("h2", "idle").toBuilder().setInterference(dev.abfleet.proto.fleet.v1.HostInterference
        .newBuilder().setBoots(7).setInterfered(1)).build();

    String[] lines = HostsCommand.table(List.of(noisy, quiet), false).split("\n");

    assertThat(lines[0]).endsWith("INTERFERED");
    assertThat(lines[1]).startsWith("h1    idle noisy").endsWith(" 4/10");
    assertThat(lines[2]).startsWith("h2    idle ").doesNotContain("noisy").endsWith(" 1/7");
    assertThat(lines[3]).isEqualTo("h1: noisy: 4 of its last 10 boots interfered");
  }

  @Test
  void aHypervisorThatCannotPinVcpusSaysSo() {
    var mac = host("mac1", "idle").toBuilder().clearHypervisors()
        .addHypervisors(HypervisorCapability.newBuilder().setName("vz").addAccelerators("vz").setVcpuPinning("none"))
        .addHypervisors(HypervisorCapability.newBuilder().setName("qemu").addAccelerators("hvf")
            .setVcpuPinning("threads"))
        .build();

    assertThat(HostsCommand.table(List.of(mac), false)).contains("vz(vz; no pinning) qemu(hvf)");
  }

  @Test
  void wideTableCountsRejectedReports() {
    var forger = host("h1", "idle").toBuilder().setRejectedReports(7).build();

    String[] lines = HostsCommand.table(List.of(forger), true).split("\n");

    assertThat(lines[0]).endsWith("REJECTED");
    assertThat(lines[1]).endsWith(" 7");
    assertThat(HostsCommand.table(List.of(forger), false)).doesNotContain("REJECTED");
  }

  @Test
  void malformedControllerAddressIsExitTwo() {
    assertThat(run("hosts", "list", "--controller", "localhost")).isEqualTo(2);
    assertThat(err.toString().strip()).isEqualTo(
        "abfleet: --controller 'localhost': expected HOST:PORT with a port 1 to 65535, several separated by commas, e.g. 127.0.0.1:7070,127.0.0.1:7071");
  }

  @Test
  void malformedHostIsExitTwoBeforeAnyCall() {
    assertThat(run("hosts", "drain", "bad host", "--controller", "127.0.0.1:1")).isEqualTo(2);
    assertThat(err.toString().strip()).startsWith("abfleet: HOST: 'bad host' is not a valid host id");
  }

  @Test
  void missingSubcommandIsExitTwo() {
    assertThat(run("hosts")).isEqualTo(2);
    assertThat(err.toString()).contains("list, drain HOST, undrain HOST, release HOST");
  }

  @Test
  void refusedControllerIsExitThreeNamingTheAddressAndTheFix() {
    assertThat(run("hosts", "list", "--controller", "127.0.0.1:1")).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString()).contains("cannot reach the controller at 127.0.0.1:1 (connection"
        + " refused): is `abfleet controller` running there?");
  }

  @Test
  void againstARealControllerListPrintsTheHeaderAndDrainOfAnUnknownHostIsExitTwo() {
    try (var node = dev.abfleet.controller.ControllerNode.start(
        dev.abfleet.controller.ControllerSettings.inMemory())) {
      String target = "127.0.0.1:" + node.grpcPort();
      var out = new java.io.ByteArrayOutputStream();
      var stdout = System.out;
      System.setOut(new java.io.PrintStream(out, true));
      int listed;
      try {
        listed = run("hosts", "list", "--controller", target);
      } finally {
        System.setOut(stdout);
      }

      assertThat(listed).isZero();
      assertThat(out.toString()).startsWith("HOST  STATE  ARCH  HYPERVISORS");
      assertThat(run("hosts", "drain", "h1", "--controller", target)).isEqualTo(2);
      assertThat(err.toString().strip())
          .isEqualTo("abfleet: unknown host 'h1'; known hosts: none yet (start a worker first)");
    }
  }
}
