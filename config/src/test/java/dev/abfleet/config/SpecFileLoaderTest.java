package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecFileLoaderTest {
  private static final FleetConfig FLEET = FleetConfigLoader.embeddedDefault();
  private static final Path DIR = Path.of("/srv/specs");

  private static final String GOOD = """
      benchmark: host-volume
      looks: [8, 16]
      threshold: 0.03
      vm: {vcpus: 1, memory_mib: 1024}
      arms:
        - name: stock
          role: baseline
          kernel: /boot/vmlinuz-6.1.0-50-amd64
        - name: spin
          role: candidate
          kernel: kernels/vmlinuz-spin
          cmdline: fuse.spin_us=50
          modules: [9p]
          volume_options: cache=loose
        - name: pinned
          role: ceiling
          kernel: /boot/vmlinuz-6.1.0-50-amd64
          vm: {vcpus: 2, pin_vcpus: true}
      """;

  private static SpecFile parse(String yaml) {
    return SpecFileLoader.parse("spec.yaml", yaml, DIR, FLEET);
  }

  @Test
  void readsEveryPartOfAGoodSpec() {
    SpecFile s = parse(GOOD);

    assertThat(s.benchmark()).isEqualTo("host-volume");
    assertThat(s.looks()).containsExactly(8, 16);
    assertThat(s.pairs()).isNull();
    assertThat(s.threshold()).isEqualTo(0.03);
    assertThat(s.vm()).isEqualTo(new SpecFile.Vm(1, 1024, null));
    assertThat(s.arms()).extracting(SpecFile.Arm::name).containsExactly("stock", "spin", "pinned");
    SpecFile.Arm spin = s.arms().get(1);
    assertThat(spin.role()).isEqualTo("candidate");
    assertThat(spin.kernel()).isEqualTo(Path.of("/srv/specs/kernels/vmlinuz-spin"));
    assertThat(spin.cmdline()).isEqualTo("fuse.spin_us=50");
    assertThat(spin.modules()).containsExactly("9p");
    assertThat(spin.volumeOptions()).isEqualTo("cache=loose");
    assertThat(spin.where()).isEqualTo("spec.yaml:9");
    assertThat(s.arms().get(2).vm()).isEqualTo(new SpecFile.Vm(2, null, true));
  }

  @Test
  void armShapeTakesEachUnsetFieldFromTheFilesVm() {
    SpecFile s = parse(GOOD);

    assertThat(s.arms().get(2).vm().over(s.vm())).isEqualTo(new SpecFile.Vm(2, 1024, true));
    assertThat(s.arms().get(0).vm().over(s.vm())).isEqualTo(new SpecFile.Vm(1, 1024, null));
  }

  @Test
  void loadsFromAFileResolvingKernelsBesideIt(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("exp.yaml"), GOOD);

    SpecFile s = SpecFileLoader.load(file, FLEET);

    assertThat(s.arms().get(1).kernel()).isEqualTo(dir.resolve("kernels/vmlinuz-spin"));
  }

  @Test
  void filesOverridesTheBenchmarksTreeSizeAndOnlyThat() {
    SpecFile s = parse("files: 300\n" + GOOD);
    assertThat(s.files()).isEqualTo(300);
    FleetConfig.Benchmark b = s.applyTo(FLEET, s.benchmark()).benchmark("host-volume");
    assertThat(b.files()).isEqualTo(300);
    assertThat(b).isEqualTo(FLEET.benchmark("host-volume").withFiles(300));
    assertThat(FLEET.benchmark("host-volume").files()).isEqualTo(2000);
    assertThat(parse(GOOD).applyTo(FLEET, "host-volume")).isEqualTo(FLEET);
  }

  @Test
  void threadsAndSizesOverrideTheBenchmarksOneByOne() {
    SpecFile s = parse("threads: 4\nfile_size: 512\n" + GOOD);

    FleetConfig.Benchmark b = s.applyTo(FLEET, s.benchmark()).benchmark("host-volume");

    assertThat(b.load()).isEqualTo(new FleetConfig.Load(4, 0, 512));
    assertThat(b).isEqualTo(FLEET.benchmark("host-volume").withLoad(new FleetConfig.Load(4, 0, 512)));
    assertThat(s.applyTo(FLEET, s.benchmark()).benchmark("host-volume").toProto(b.metrics(), 5).getThreads())
        .isEqualTo(4);
  }

  @Test
  void rejectsThreadsOutOfRangeNamingTheLine() {
    assertThatThrownBy(() -> parse("threads: -1\n" + GOOD)).isInstanceOf(Problem.class)
        .hasMessage("spec.yaml:1: threads is -1; expected a whole number from 0 to 256");
  }

  @Test
  void rejectsThreadsForAWorkload(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("w"));
    String spec = "threads: 2\nworkload: {files: w, run: sh run.sh}\n" + GOOD;

    assertThatThrownBy(() -> SpecFileLoader.parse("spec.yaml", spec, dir, FLEET)).isInstanceOf(Problem.class)
        .hasMessage("spec.yaml:1: threads is a fleetbench setting; the workload runs its own command: drop threads");
  }

  @Test
  void filesMustBeAPositiveCount() {
    assertThatThrownBy(() -> parse("files: 0\n" + GOOD)).isInstanceOf(Problem.class)
        .hasMessageStartingWith("spec.yaml:1:");
  }

  @Test
  void unknownTopLevelKeyNamesLineAndChoices() {
    assertThatThrownBy(() -> parse("pair: 8\n" + GOOD))
        .isInstanceOf(Problem.class)
        .hasMessage("spec.yaml:1: unknown key 'pair' at the top level; expected one of alpha, arms, benchmark, boot_timeout,"
            + " file_size, files, iterations, looks, metrics, pairs, ratios, seed, seq_size, threads, threshold, vm,"
            + " volume, warmup_boot, workload");
  }

  @Test
  void unknownBenchmarkListsFleetYamlsBenchmarks() {
    assertThatThrownBy(() -> parse(GOOD.replace("benchmark: host-volume", "benchmark: nfs")))
        .hasMessage("spec.yaml:1: benchmark is 'nfs'; expected one of fuse-metadata, host-volume, virtiofs");
  }

  @Test
  void unknownRoleNamesTheRoles() {
    assertThatThrownBy(() -> parse(GOOD.replace("role: ceiling", "role: best")))
        .hasMessage("spec.yaml:16: arms[2].role is 'best'; expected one of baseline, candidate, ceiling");
  }

  @Test
  void armWithoutKernelSaysWhatAnArmNeeds() {
    assertThatThrownBy(() -> parse(GOOD.replace("    kernel: kernels/vmlinuz-spin\n", "")))
        .hasMessage("spec.yaml:9: arms[1] has no kernel; give kernel: (an image) or build: {source:"
            + " /usr/src/linux-source-6.1.tar.xz, config: abfleet-minimal}");
  }

  private static final String BUILT = """
      arms:
        - name: stock
          role: baseline
          build:
            source: /usr/src/linux-source-6.1.tar.xz
        - name: slow
          role: candidate
          build:
            source: linux.git
            ref: v6.1
            patches: [patches/slow.patch, /srv/more.patch]
            config: defconfig
            config_fragments: [frag/virtiofs.config, CONFIG_ACPI=y, "# CONFIG_SMP is not set"]
            arch: aarch64
            make_args: [KCFLAGS=-O2]
      """;

  @Test
  void readsAnArmsBuildBlockResolvingPathsBesideTheFile() {
    SpecFile s = parse(BUILT);

    assertThat(s.arms().get(0).kernel()).isNull();
    assertThat(s.arms().get(0).build()).isEqualTo(new SpecFile.Build(Path.of("/usr/src/linux-source-6.1.tar.xz"),
        null, List.of(), "abfleet-minimal", List.of(), List.of(), "x86_64", List.of(), "spec.yaml:5"));
    SpecFile.Build slow = s.arms().get(1).build();
    assertThat(slow.source()).isEqualTo(DIR.resolve("linux.git"));
    assertThat(slow.ref()).isEqualTo("v6.1");
    assertThat(slow.patches()).containsExactly(DIR.resolve("patches/slow.patch"), Path.of("/srv/more.patch"));
    assertThat(slow.config()).isEqualTo("defconfig");
    assertThat(slow.configFragments()).containsExactly(DIR.resolve("frag/virtiofs.config"));
    assertThat(slow.configLines()).containsExactly("CONFIG_ACPI=y", "# CONFIG_SMP is not set");
    assertThat(slow.arch()).isEqualTo("aarch64");
    assertThat(slow.makeArgs()).containsExactly("KCFLAGS=-O2");
  }

  @Test
  void aConfigFileBaseIsResolvedBesideTheSpec() {
    SpecFile s = parse(BUILT.replace("config: defconfig", "config: configs/my.config"));

    assertThat(s.arms().get(1).build().config()).isEqualTo(DIR.resolve("configs/my.config").toString());
  }

  @Test
  void anArmWithBothKernelAndBuildIsRefused() {
    assertThatThrownBy(() -> parse(BUILT.replace("    build:\n      source: /usr/src", "    kernel: /boot/vmlinuz\n"
        + "    build:\n      source: /usr/src")))
        .hasMessageContaining("has both kernel and build; give one");
  }

  @Test
  void aBuildWithoutSourceSaysWhatToGive() {
    assertThatThrownBy(() -> parse(BUILT.replace("      source: /usr/src/linux-source-6.1.tar.xz\n", "      arch: x86_64\n")))
        .hasMessageContaining("has no source; give a kernel source tarball, tree or git repository");
  }

  @Test
  void aMalformedConfigLineIsRefusedWithTheForm() {
    assertThatThrownBy(() -> parse(BUILT.replace("CONFIG_ACPI=y", "CONFIG_ACPI")))
        .hasMessageContaining("'CONFIG_ACPI' is not a config line; write CONFIG_NAME=y");
  }

  @Test
  void makeArgsAreVariablesNotOptions() {
    assertThatThrownBy(() -> parse(BUILT.replace("KCFLAGS=-O2", "-j1")))
        .hasMessageContaining("'-j1' is not a make variable; write NAME=value");
  }

  @Test
  void anUnknownBuildKeyIsRefused() {
    assertThatThrownBy(() -> parse(BUILT.replace("arch: aarch64", "target: aarch64")))
        .isInstanceOf(Problem.class).hasMessageContaining("target");
  }

  @Test
  void secondBaselineIsRefusedAtItsLine() {
    assertThatThrownBy(() -> parse(GOOD.replace("role: ceiling", "role: baseline")))
        .hasMessage("spec.yaml:15: a second baseline arm ('pinned'); an experiment has one baseline, make the"
            + " others candidates");
  }

  @Test
  void specWithoutCandidateSaysToAddOne() {
    String y = "arms:\n  - {name: a, role: baseline, kernel: /k}\n";
    assertThatThrownBy(() -> parse(y)).hasMessage("spec.yaml:2: arms has no candidate; add an arm with role: candidate");
  }

  @Test
  void duplicateArmNamesAreRefused() {
    assertThatThrownBy(() -> parse(GOOD.replace("name: pinned", "name: stock")))
        .hasMessage("spec.yaml:15: two arms are named 'stock'; give the arms different names");
  }

  @Test
  void pairsAndLooksTogetherAreRefused() {
    assertThatThrownBy(() -> parse("pairs: 8\n" + GOOD))
        .hasMessage("spec.yaml:3: pairs and looks both given; the last look is the most pairs run, drop pairs");
  }

  @Test
  void outOfRangeVcpusSaysTheRange() {
    assertThatThrownBy(() -> parse(GOOD.replace("{vcpus: 2,", "{vcpus: 0,")))
        .hasMessage("spec.yaml:18: arms[2].vm.vcpus is 0; expected a whole number from 1 to 512");
  }

  @Test
  void pinVcpusMustBeTrueOrFalse() {
    assertThatThrownBy(() -> parse(GOOD.replace("pin_vcpus: true", "pin_vcpus: on")))
        .hasMessage("spec.yaml:18: arms[2].vm.pin_vcpus is 'on'; expected one of true, false");
  }

  @Test
  void metricOutsideTheHarnessNamesTheValidOnes() {
    assertThatThrownBy(() -> parse("metrics: [fsync]\n" + GOOD))
        .hasMessageStartingWith("spec.yaml:1: unknown metric 'fsync' for harness fleetbench; expected one of"
            + " metadata_stat");
  }

  @Test
  void moduleMustBeABareName() {
    assertThatThrownBy(() -> parse(GOOD.replace("modules: [9p]", "modules: [/lib/9p.ko]")))
        .hasMessageStartingWith("spec.yaml:13: arms[1].modules[0] '/lib/9p.ko' is not a module name");
  }

  @Test
  void volumeOptionsWithSpacesAreRefused() {
    assertThatThrownBy(() -> parse(GOOD.replace("cache=loose", "'cache=loose; rm -rf /'")))
        .hasMessageStartingWith("spec.yaml:14: arms[1].volume_options 'cache=loose; rm -rf /' is not a list of"
            + " mount options");
  }

  @Test
  void brokenYamlNamesTheLine() {
    assertThatThrownBy(() -> parse("arms:\n  - name: a\n   role: b\n"))
        .hasMessageStartingWith("spec.yaml:3: not valid YAML:");
  }

  @Test
  void emptyFileSaysWhatItNeeds() {
    assertThatThrownBy(() -> parse("")).hasMessageStartingWith("spec.yaml:1: the spec file is empty");
  }

  @Test
  void deepNestingIsRefusedBeforeComposing() {
    String deep = "arms: " + "[".repeat(40) + "]".repeat(40) + "\n";
    assertThatThrownBy(() -> parse(deep)).hasMessageStartingWith("spec.yaml:1: nested more than 32 levels deep");
  }

  @Test
  void aFileOverOneMebibyteIsNotASpecFile(@TempDir Path dir) throws Exception {
    Path big = Files.write(dir.resolve("big.yaml"), new byte[(1 << 20) + 1]);

    assertThatThrownBy(() -> SpecFileLoader.load(big, FLEET))
        .hasMessage(big + ": larger than 1 MiB, so not a spec file; pass a spec file with --spec");
  }

  @Test
  void missingFileSaysWhichOption(@TempDir Path dir) {
    assertThatThrownBy(() -> SpecFileLoader.load(dir.resolve("nope.yaml"), FLEET))
        .hasMessage(dir.resolve("nope.yaml") + ": no such file; pass an existing spec file with --spec");
  }

  @Test
  void nonUtf8TextNamesItsLine(@TempDir Path dir) throws Exception {
    Path file = Files.write(dir.resolve("latin1.yaml"), List.of("arms:", "  - name: caf\u00e9"),
        java.nio.charset.StandardCharsets.ISO_8859_1);

    assertThatThrownBy(() -> SpecFileLoader.load(file, FLEET))
        .hasMessage(file + ":2: not UTF-8 text; save the file as UTF-8");
  }

  @Test
  void aTopLevelVolumeReplacesTheBenchmarksTransportAndGivesArmsWithoutTheirOwnItsCache() {
    SpecFile s = parse("""
        benchmark: host-volume
        volume: {transport: virtiofs, cache: auto}
        arms:
          - {name: a, role: baseline, kernel: /k}
          - {name: b, role: candidate, kernel: /k, volume: {cache: always}}
        """);

    assertThat(s.volume()).isEqualTo(new SpecFile.Volume("virtiofs", "auto"));
    assertThat(s.arms().get(1).volume()).isEqualTo(new SpecFile.Volume(null, "always"));
    assertThat(s.arms().get(0).volume().over(s.volume())).isEqualTo(new SpecFile.Volume("virtiofs", "auto"));
    assertThat(FLEET.benchmark("host-volume").transport()).isEqualTo("9p");
    assertThat(s.applyTo(FLEET, s.benchmark()).benchmark("host-volume").transport()).isEqualTo("virtiofs");
  }

  @Test
  void rejectsADaemonCacheModeOnAnArmWhoseVolumeGoesOverNineP() {
    assertThatThrownBy(() -> parse("""
        benchmark: host-volume
        arms:
          - {name: a, role: baseline, kernel: /k}
          - {name: b, role: candidate, kernel: /k, volume: {cache: always}}
        """)).hasMessageContaining("arm b sets cache always, a virtio-fs daemon setting, but its volume goes over 9p")
        .hasMessageContaining("transport: virtiofs");
  }

  @Test
  void rejectsAVolumeOnABenchmarkThatRunsOnTheGuestsTmpfs() {
    assertThatThrownBy(() -> parse("""
        benchmark: fuse-metadata
        volume: {transport: virtiofs}
        arms:
          - {name: a, role: baseline, kernel: /k}
          - {name: b, role: candidate, kernel: /k}
        """)).hasMessageStartingWith("spec.yaml:2:").hasMessageContaining("runs on the guest's tmpfs");
  }

  @Test
  void rejectsAnUnknownTransportNamingTheChoices() {
    assertThatThrownBy(() -> parse("""
        benchmark: host-volume
        volume: {transport: nfs}
        arms:
          - {name: a, role: baseline, kernel: /k}
          - {name: b, role: candidate, kernel: /k}
        """)).hasMessageContaining("nfs").hasMessageContaining("auto, virtiofs, 9p");
  }
}
