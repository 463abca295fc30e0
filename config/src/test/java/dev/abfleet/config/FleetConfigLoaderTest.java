package dev.abfleet.config;

import dev.abfleet.model.Limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetConfigLoaderTest {
  @Test
  void exampleFleetYamlIsTheBuiltInDefault() {
    FleetConfig example = FleetConfigLoader.load(Path.of("..", "fleet.yaml"));
    assertThat(FleetConfigLoader.embeddedDefault()).isEqualTo(example);
    assertThat(example.benchmark(null).metrics())
        .containsExactly("metadata_stat", "negative_lookup", "create_delete", "seq_read");
    assertThat(example.policy().pairs()).isEqualTo(8);
    assertThat(example.controller().store().kind()).isEqualTo("h2");
  }

  @Test
  void defaultFleetHasAHostVolumeBenchmarkOfTheSixMetrics() {
    FleetConfig.Benchmark b = FleetConfigLoader.embeddedDefault().benchmark("host-volume");
    assertThat(b.volume()).isEqualTo("host");
    assertThat(b.metrics()).containsExactly("metadata_stat", "negative_lookup", "create_delete", "seq_read",
        "find_recursive", "rm_rf");
    assertThat(FleetConfigLoader.embeddedDefault().benchmark("fuse-metadata").volume()).isEqualTo("guest");
  }

  @Test
  void benchmarkCarriesVolumeFilesAndCache() {
    FleetConfig.Benchmark b = FleetConfigLoader.parse("f.yaml",
        "benchmarks:\n  tree:\n    metrics: [find_recursive]\n    volume: host\n    files: 500\n    cache: cold\n")
        .benchmark("tree");
    assertThat(b.toProto(b.metrics(), 3).build()).satisfies(p -> {
      assertThat(p.getVolume()).isEqualTo("host");
      assertThat(p.getFiles()).isEqualTo(500);
      assertThat(p.getCache()).isEqualTo("cold");
      assertThat(p.getIterations()).isEqualTo(3);
    });
  }

  @Test
  void benchmarkCarriesThreadsAndFileSizesIntoTheProto() {
    FleetConfig.Benchmark b = FleetConfigLoader.parse("f.yaml",
        "benchmarks:\n  wide:\n    threads: 8\n    seq_size: 64\n    file_size: 4096\n").benchmark("wide");

    assertThat(b.load()).isEqualTo(new FleetConfig.Load(8, 64, 4096));
    assertThat(b.toProto(b.metrics(), 3).build()).satisfies(p -> {
      assertThat(p.getThreads()).isEqualTo(8);
      assertThat(p.getSeqSizeMib()).isEqualTo(64);
      assertThat(p.getFileSize()).isEqualTo(4096);
    });
  }

  @Test
  void leavesThreadsAndSizesToTheHarnessWhenNotGiven() {
    FleetConfig.Benchmark b = FleetConfigLoader.embeddedDefault().benchmark("host-volume");

    assertThat(b.load()).isEqualTo(FleetConfig.Load.DEFAULT);
    assertThat(b.files()).isEqualTo(2000);
  }

  @Test
  void rejectsMoreThreadsThanTheHarnessRunsNamingLineAndRange() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "benchmarks:\n  b:\n    threads: 300\n"))
        .isInstanceOf(Problem.class)
        .hasMessage("f.yaml:3: benchmarks.b.threads is 300; expected a whole number from 0 to 256");
  }

  @Test
  void rejectsAZeroSeqSizeAndAFileSizeAboveSixteenMebibytes() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "benchmarks:\n  b:\n    seq_size: 0\n"))
        .isInstanceOf(Problem.class).hasMessageContaining("seq_size is 0; expected a whole number from 1 to 4096");
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "benchmarks:\n  b:\n    file_size: 16777217\n"))
        .isInstanceOf(Problem.class).hasMessageContaining("file_size is 16777217; expected a whole number from 0 to");
  }

  @Test
  void unknownVolumeNamesLineAndChoices() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "benchmarks:\n  b:\n    volume: nfs\n"))
        .hasMessage("f.yaml:3: benchmarks.b.volume is 'nfs'; expected one of guest, host");
  }

  @Test
  void vmDefaultsMayPinVcpus() {
    FleetConfig c = FleetConfigLoader.parse("f.yaml", "vm:\n  vcpus: 2\n  pin_vcpus: true\n");
    assertThat(c.vm()).isEqualTo(new FleetConfig.Vm(2, 512, true));
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "vm:\n  pin_vcpus: yes\n"))
        .hasMessage("f.yaml:2: vm.pin_vcpus is 'yes'; expected one of true, false");
  }

  @Test
  void kubernetesConfigMapCarriesAValidFleetYaml() throws Exception {
    String manifest = java.nio.file.Files.readString(Path.of("..", "k8s", "config.yaml"));
    @SuppressWarnings("unchecked")
    var doc = (java.util.Map<String, Object>) new org.snakeyaml.engine.v2.api.Load(
        org.snakeyaml.engine.v2.api.LoadSettings.builder().build()).loadFromString(manifest);
    @SuppressWarnings("unchecked")
    String fleetYaml = ((java.util.Map<String, String>) doc.get("data")).get("fleet.yaml");
    FleetConfig c = FleetConfigLoader.parse("k8s/config.yaml", fleetYaml);
    assertThat(c.controller().store().kind()).isEqualTo("postgres");
    assertThat(c.controller().store().passwordEnv()).isEqualTo("ABFLEET_DB_PASSWORD");
    assertThat(c.controller().seedNodes()).isEmpty();
    assertThat(c.controller().formation().kubernetesApi()).isTrue();
  }

  @Test
  void emptyFileIsAValidFleetWithDefaults() {
    FleetConfig c = FleetConfigLoader.parse("f.yaml", "");
    assertThat(c.policy().noiseThreshold()).isEqualTo(0.02);
    assertThat(c.benchmark(null).harness()).isEqualTo("fleetbench");
  }

  @Test
  void unknownKeyNamesLineAndChoices() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  grpc_port: 1\n  grcp_host: x\n"))
        .isInstanceOf(Problem.class)
        .hasMessage("f.yaml:3: unknown key 'grcp_host' under controller; expected one of artifacts, auth, "
            + "cluster_port, dashboard_port, discovery, grpc_host, grpc_port, heartbeat_interval_ms, limits, management_port, "
            + "metrics_port, plaintext, pod_label_selector, required_contact_points, seed_nodes, store, tls");
  }

  @Test
  void tlsPathsResolveAgainstTheFilesDirectory() {
    FleetConfig c = FleetConfigLoader.parse("f.yaml", "controller:\n  tls:\n    ca: certs/ca.pem\n"
        + "    cert: /etc/abfleet/c.pem\n    key: certs/c-key.pem\n  auth:\n    mode: tokens\n",
        java.nio.file.Path.of("/srv/fleet"));
    FleetConfig.ControllerSecurity s = c.controller().security();
    assertThat(s.ca()).isEqualTo("/srv/fleet/certs/ca.pem");
    assertThat(s.cert()).isEqualTo("/etc/abfleet/c.pem");
    assertThat(s.key()).isEqualTo("/srv/fleet/certs/c-key.pem");
    assertThat(s.authMode()).isEqualTo("tokens");
    assertThat(s.plaintext()).isFalse();
  }

  @Test
  void tlsNeedsAllThreeFilesAndExcludesPlaintext() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  tls:\n    ca: ca.pem\n"
        + "    cert: c.pem\n"))
        .isInstanceOf(Problem.class)
        .hasMessageStartingWith("f.yaml:3: controller.tls.key is missing; TLS needs ca, cert and key");
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  tls:\n    ca: ca.pem\n"
        + "    cert: c.pem\n    key: k.pem\n  plaintext: true\n"))
        .isInstanceOf(Problem.class)
        .hasMessageContaining("controller.plaintext: true and controller.tls are both set");
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  auth:\n    mode: ldap\n"))
        .isInstanceOf(Problem.class)
        .hasMessageContaining("expected one of tokens, none");
  }

  @Test
  void theBuiltInFleetYamlHasNoTlsAndNoPlaintext() {
    FleetConfig.ControllerSecurity s = FleetConfigLoader.embeddedDefault().controller().security();
    assertThat(s).isEqualTo(FleetConfig.ControllerSecurity.NONE);
  }

  @Test
  void controllerFormsByKubernetesApiWithManagement() {
    FleetConfig c = FleetConfigLoader.parse("f.yaml", "controller:\n  discovery: kubernetes-api\n"
        + "  management_port: 7626\n  pod_label_selector: app=ctl,tier=x\n  required_contact_points: 3\n");
    assertThat(c.controller().formation()).isEqualTo(new FleetConfig.Formation("kubernetes-api", 7626, "app=ctl,tier=x", 3));
    assertThat(c.controller().formation().kubernetesApi()).isTrue();
  }

  @Test
  void kubernetesApiDiscoveryDefaultsToTheManifestsLabelAndTwoContactPoints() {
    FleetConfig c = FleetConfigLoader.parse("f.yaml", "controller:\n  discovery: kubernetes-api\n  management_port: 7626\n");
    assertThat(c.controller().formation())
        .isEqualTo(new FleetConfig.Formation("kubernetes-api", 7626, "app=abfleet-controller", 2));
  }

  @Test
  void seedNodeDiscoveryIsTheDefaultAndMayServeManagement() {
    assertThat(FleetConfigLoader.parse("f.yaml", "").controller().formation()).isEqualTo(FleetConfig.Formation.SEED_NODES);
    assertThat(FleetConfigLoader.parse("f.yaml", "controller:\n  management_port: 7626\n").controller().formation())
        .isEqualTo(new FleetConfig.Formation("seed-nodes", 7626, "", 1));
  }

  @Test
  void kubernetesApiDiscoveryNeedsAManagementPort() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  grpc_port: 7070\n  discovery: kubernetes-api\n"))
        .hasMessageStartingWith("f.yaml:3: controller.discovery kubernetes-api needs controller.management_port");
  }

  @Test
  void kubernetesApiDiscoveryRejectsSeedNodes() {
    String y = "controller:\n  discovery: kubernetes-api\n  management_port: 7626\n  seed_nodes: [pekko://abfleet@a:2552]\n";
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", y))
        .hasMessageStartingWith("f.yaml:4: controller.seed_nodes and discovery: kubernetes-api exclude each other");
  }

  @Test
  void podLabelSelectorOnlyWithKubernetesApiDiscovery() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  pod_label_selector: app=x\n"))
        .hasMessage("f.yaml:2: controller.pod_label_selector is only for discovery: kubernetes-api; drop it or set "
            + "controller.discovery: kubernetes-api");
  }

  @Test
  void unknownDiscoveryNamesTheChoices() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  discovery: dns\n"))
        .hasMessage("f.yaml:2: controller.discovery is 'dns'; expected one of seed-nodes, kubernetes-api");
  }

  @Test
  void managementPortMustBeAPort() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  management_port: 0\n"))
        .hasMessage("f.yaml:2: controller.management_port is 0; expected a whole number from 1 to 65535");
  }

  @Test
  void unknownMetricNamesLineAndValidMetrics() {
    String y = "benchmarks:\n  b:\n    metrics: [metadata_stat,\n      fsync]\n";
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", y))
        .hasMessageStartingWith("f.yaml:4: unknown metric 'fsync'")
        .hasMessageContaining("metadata_stat, negative_lookup, create_delete, seq_read");
  }

  @Test
  void gatingMetricMustBeMeasured() {
    String y = "benchmarks:\n  b:\n    metrics: [seq_read]\n    gating: [create_delete]\n";
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", y))
        .hasMessageStartingWith("f.yaml:4: gating metric 'create_delete' is not measured");
  }

  @Test
  void outOfRangeNumberSaysTheRange() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "policy:\n  alpha: 0.7\n"))
        .hasMessage("f.yaml:2: policy.alpha is 0.7; expected a number between 0.0 and 0.5");
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "policy:\n  pairs: many\n"))
        .hasMessageContaining("f.yaml:2: policy.pairs is 'many'; expected a whole number");
  }

  @Test
  void looksMakeASequentialPolicyWhoseLastLookIsThePairBudget() {
    FleetConfig c = FleetConfigLoader.parse("f.yaml", "policy:\n  looks: [8, 16, 24]\n");
    assertThat(c.policy().looks()).containsExactly(8, 16, 24);
    assertThat(c.policy().pairs()).isEqualTo(24);
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "policy:\n  looks: [8,\n    4]\n"))
        .hasMessageStartingWith("f.yaml:3: policy.looks must be ascending");
  }

  @Test
  void postgresStoreNeedsAJdbcUrl() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  store:\n    kind: postgres\n"))
        .hasMessageContaining("f.yaml:3: controller.store.url must be a jdbc:postgresql:// URL");
  }

  @Test
  void snapshotIntervalDefaultsToAHundredEventsAndZeroTurnsSnapshotsOff() {
    assertThat(FleetConfigLoader.embeddedDefault().controller().store().snapshotEvery()).isEqualTo(100);
    FleetConfig off = FleetConfigLoader.parse("f.yaml", "controller:\n  store:\n    snapshot_every: 0\n");
    assertThat(off.controller().store().snapshotEvery()).isZero();
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  store:\n    snapshot_every: -5\n"))
        .hasMessageContaining("f.yaml:3:");
  }

  @Test
  void controllerArtifactsTakeAPathAndASizeCap() {
    FleetConfig c = FleetConfigLoader.parse("f.yaml",
        "controller:\n  artifacts:\n    path: /srv/abfleet/artifacts\n    max_bytes: 512MiB\n");
    assertThat(c.controller().artifacts()).isEqualTo(new FleetConfig.Artifacts("/srv/abfleet/artifacts", 512L << 20));
    assertThat(FleetConfigLoader.parse("f.yaml", "").controller().artifacts()).isEqualTo(FleetConfig.Artifacts.DEFAULT);
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  artifacts:\n    max_bytes: 20GB\n"))
        .hasMessageContaining("f.yaml:3: controller.artifacts.max_bytes is '20GB'; expected a positive size in bytes");
  }

  @Test
  void controllerLimitsMetricsPortAndUploadCapHaveDefaultsAndMayBeSet() {
    FleetConfig.Controller d = FleetConfigLoader.parse("f.yaml", "").controller();
    assertThat(d.limits()).isEqualTo(new dev.abfleet.model.Limits(50, 200, 500, 100));
    assertThat(d.metricsPort()).isEqualTo(9464);
    assertThat(d.artifacts().maxUploadBytes()).isEqualTo(8L << 30);

    FleetConfig.Controller c = FleetConfigLoader.parse("f.yaml", "controller:\n  metrics_port: 0\n"
        + "  limits:\n    calls_per_second: 10\n    burst: 30\n    worker_messages_per_second: 100\n"
        + "    max_concurrent_calls_per_connection: 8\n  artifacts:\n    max_upload_bytes: 2GiB\n").controller();
    assertThat(c.limits()).isEqualTo(new dev.abfleet.model.Limits(10, 30, 100, 8));
    assertThat(c.metricsPort()).isZero();
    assertThat(c.artifacts().maxUploadBytes()).isEqualTo(2L << 30);
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  limits:\n    burst: 0\n"))
        .hasMessageContaining("f.yaml:3:").hasMessageContaining("burst");
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  limits:\n    rate: 5\n"))
        .hasMessageContaining("unknown key 'rate' under controller.limits");
  }

  @Test
  void dashboardIsOffUnlessAPortIsGiven() {
    assertThat(FleetConfigLoader.parse("f.yaml", "").controller().dashboardPort()).isZero();
    assertThat(FleetConfigLoader.parse("f.yaml", "controller:\n  dashboard_port: 8080\n")
        .controller().dashboardPort()).isEqualTo(8080);
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "controller:\n  dashboard_port: 70000\n"))
        .hasMessageContaining("f.yaml:2:").hasMessageContaining("70000");
  }

  @Test
  void syntaxErrorNamesTheLine() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "policy:\n  pairs: [8\n  alpha: 0.05\n"))
        .isInstanceOf(Problem.class)
        .hasMessageStartingWith("f.yaml:")
        .hasMessageContaining("not valid YAML");
  }

  @Test
  void unknownDefaultBenchmarkListsTheDefinedOnes() {
    String y = "benchmarks:\n  meta: {}\ndefault_benchmark: metta\n";
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", y))
        .hasMessage("f.yaml:3: default_benchmark 'metta' is not defined here; define it under benchmarks:, or name"
            + " one of meta");
  }

  @Test
  void defaultBenchmarkWithoutBenchmarksSaysToDefineIt() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "default_benchmark: fuse-metadata\n"))
        .hasMessage("f.yaml:1: default_benchmark 'fuse-metadata' is not defined here; this file defines no"
            + " benchmarks (only the built-in 'default'), so define it under benchmarks:, e.g. benchmarks:"
            + " {fuse-metadata: {metrics: [metadata_stat]}}, or drop default_benchmark");
  }

  @Test
  void blockNestingFiveThousandDeepIsAProblemNotAStackOverflow() {
    StringBuilder y = new StringBuilder("policy:\n");
    for (int i = 0; i < 5000; i++) {
      y.append(" ".repeat(i + 1)).append("k").append(i).append(":\n");
    }
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", y.toString()))
        .isInstanceOf(Problem.class)
        .hasMessage("f.yaml:33: nested more than 32 levels deep; fleet.yaml needs at most 4, check the"
            + " indentation");
  }

  @Test
  void flowNestingFiveThousandDeepIsAProblemNotAStackOverflow() {
    String y = "policy: " + "[".repeat(5000) + "]".repeat(5000) + "\n";
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", y))
        .isInstanceOf(Problem.class)
        .hasMessageStartingWith("f.yaml:1: nested more than 32 levels deep");
  }

  @Test
  void fileLargerThanTheCapIsAProblemNamingIt(@TempDir Path dir) throws IOException {
    Path f = Files.write(dir.resolve("big.yaml"), new byte[(1 << 20) + 1]);
    assertThatThrownBy(() -> FleetConfigLoader.load(f))
        .isInstanceOf(Problem.class)
        .hasMessage(f + ": larger than 1 MiB, so not a fleet.yaml; pass a fleet.yaml with --config");
  }

  @Test
  void fileThatIsNotUtf8NamesTheLine(@TempDir Path dir) throws IOException {
    Path f = Files.write(dir.resolve("fleet.yaml"),
        "policy:\n  pairs: 8 # caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> FleetConfigLoader.load(f))
        .isInstanceOf(Problem.class)
        .hasMessage(f + ":2: not UTF-8 text; save the file as UTF-8");
  }

  @Test
  void readsABenchmarksVolumeTransportAndRefusesItWithoutAHostVolume() {
    FleetConfig c = FleetConfigLoader.parse("fleet.yaml", """
        benchmarks:
          vfs: {volume: host, transport: virtiofs}
        """);
    assertThat(c.benchmark("vfs").transport()).isEqualTo("virtiofs");
    assertThat(c.benchmark("vfs").toProto(List.of(), 1).getTransport()).isEqualTo("virtiofs");

    assertThatThrownBy(() -> FleetConfigLoader.parse("fleet.yaml", """
        benchmarks:
          vfs: {transport: virtiofs}
        """)).hasMessageContaining("transport is how a host volume is shared; add volume: host");
  }
}
