package dev.abfleet.cli.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.cli.Main;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.controller.ClusterFormation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The manifests under k8s/ against the Kubernetes object model, the abfleet CLI and each other. */
class ManifestsTest {
  private static final Pattern ENV_REF = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

  private static List<Manifests.Manifest> all;
  private static StatefulSet controllers;
  private static DaemonSet workers;
  private static FleetConfig fleet;

  @BeforeAll
  static void read() throws Exception {
    all = Manifests.all();
    controllers = Manifests.one(all, StatefulSet.class, "abfleet-controller");
    workers = Manifests.one(all, DaemonSet.class, "abfleet-worker");
    String fleetYaml = Manifests.one(all, ConfigMap.class, "abfleet-config").getData().get("fleet.yaml");
    fleet = FleetConfigLoader.parse("k8s/config.yaml fleet.yaml", fleetYaml);
  }

  @Test
  void everyFileHoldsOnlyKnownKindsWithoutUnknownFields() {
    assertThat(all.stream().map(m -> m.object().getKind()).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder("Namespace", "ConfigMap", "Service", "ServiceAccount", "StatefulSet",
            "DaemonSet", "Role", "RoleBinding", "PersistentVolumeClaim");
    assertThat(all.stream().map(Manifests.Manifest::file).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder("namespace.yaml", "config.yaml", "rbac.yaml", "controller.yaml",
            "worker.yaml");
  }

  @Test
  void misspelledFieldIsRejectedWithItsPath() {
    String y = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n"
        + "      containers:\n        - name: c\n          readinesProbe: {periodSeconds: 5}\n";
    assertThatThrownBy(() -> Manifests.read("w.yaml", y))
        .hasMessageContaining("w.yaml document 1")
        .hasMessageContaining("spec.template.spec.containers[0].readinesProbe");
  }

  @Test
  void wrongTypeAndWrongApiVersionAreRejected() {
    assertThatThrownBy(() -> Manifests.read("s.yaml",
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec: {replicas: three}\n"))
        .hasMessageContaining("s.yaml document 1");
    assertThatThrownBy(() -> Manifests.read("s.yaml", "apiVersion: v1\nkind: StatefulSet\nmetadata: {name: s}\n"))
        .hasMessageContaining("apiVersion v1 for StatefulSet; expected apps/v1");
  }

  @Test
  void everythingLivesInTheNamespaceOfNamespaceYaml() {
    String ns = Manifests.one(all, Namespace.class, "abfleet").getMetadata().getName();
    all.stream().map(Manifests.Manifest::object).filter(o -> !(o instanceof Namespace))
        .forEach(o -> assertThat(o.getMetadata().getNamespace()).as(o.getKind() + " " + o.getMetadata().getName())
            .isEqualTo(ns));
  }

  @Test
  void controllerStatefulSetRunsThreeReplicasWhoseLabelsMatchItsSelector() {
    assertThat(controllers.getSpec().getReplicas()).isEqualTo(3);
    assertThat(controllers.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(controllers.getSpec().getSelector().getMatchLabels());
    assertThat(controllers.getSpec().getSelector().getMatchExpressions()).isEmpty();
    assertThat(workers.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(workers.getSpec().getSelector().getMatchLabels());
  }

  @Test
  void bootstrapFindsExactlyTheStatefulSetsPodsAndWaitsForAllOfThem() {
    FleetConfig.Formation f = fleet.controller().formation();
    assertThat(f.kubernetesApi()).isTrue();
    assertThat(fleet.controller().seedNodes()).isEmpty();
    assertThat(labelSelectorMatches(f.podLabelSelector(), controllers.getSpec().getTemplate().getMetadata().getLabels()))
        .as("pod_label_selector %s selects the controller pods", f.podLabelSelector()).isTrue();
    assertThat(labelSelectorMatches(f.podLabelSelector(), workers.getSpec().getTemplate().getMetadata().getLabels()))
        .as("pod_label_selector %s leaves the worker pods out", f.podLabelSelector()).isFalse();
    assertThat(f.requiredContactPoints()).isEqualTo(controllers.getSpec().getReplicas());
    // With OrderedReady, pod 0 would wait to be ready, which needs the cluster of all three.
    assertThat(controllers.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
  }

  @Test
  void controllerServiceAccountMayListPodsInItsNamespace() {
    String account = controllers.getSpec().getTemplate().getSpec().getServiceAccountName();
    Manifests.one(all, ServiceAccount.class, account);
    RoleBinding binding = Manifests.all(all, RoleBinding.class).stream()
        .filter(b -> b.getSubjects().stream().anyMatch(s -> s.getKind().equals("ServiceAccount")
            && s.getName().equals(account)))
        .findFirst().orElseThrow(() -> new AssertionError("no RoleBinding for ServiceAccount " + account));
    assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
    Role role = Manifests.one(all, Role.class, binding.getRoleRef().getName());
    assertThat(role.getRules()).anySatisfy(r -> {
      assertThat(r.getApiGroups()).contains("");
      assertThat(r.getResources()).contains("pods");
      assertThat(r.getVerbs()).contains("get", "watch", "list");
    });
  }

  @Test
  void servicesSelectTheControllerPodsAndTargetDeclaredPorts() {
    Service headless = Manifests.one(all, Service.class, controllers.getSpec().getServiceName());
    assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(headless.getSpec().getPublishNotReadyAddresses()).isTrue();
    Service grpc = Manifests.one(all, Service.class, "abfleet");
    Container c = container(controllers.getSpec().getTemplate());
    for (Service s : List.of(headless, grpc)) {
      assertThat(s.getSpec().getSelector()).isEqualTo(controllers.getSpec().getSelector().getMatchLabels());
      s.getSpec().getPorts().forEach(p -> assertThat(portNumber(c, p.getTargetPort()))
          .as("Service %s port %s", s.getMetadata().getName(), p.getName()).isEqualTo(p.getPort()));
    }
    assertThat(grpc.getSpec().getPorts()).singleElement()
        .satisfies(p -> assertThat(p.getPort()).isEqualTo(fleet.controller().grpcPort()));
  }

  @Test
  void controllerPortsAreTheOnesFleetYamlConfigures() {
    Container c = container(controllers.getSpec().getTemplate());
    assertThat(portNumber(c, new IntOrString("grpc"))).isEqualTo(fleet.controller().grpcPort());
    assertThat(portNumber(c, new IntOrString("cluster"))).isEqualTo(fleet.controller().clusterPort());
    assertThat(portNumber(c, new IntOrString(ClusterFormation.MANAGEMENT_PORT_NAME)))
        .as("bootstrap asks the API for the port named %s", ClusterFormation.MANAGEMENT_PORT_NAME)
        .isEqualTo(fleet.controller().formation().managementPort());
  }

  @Test
  void probesAskPekkoManagementOnTheManagementPort() {
    Container c = container(controllers.getSpec().getTemplate());
    int management = fleet.controller().formation().managementPort();
    HTTPGetAction ready = c.getReadinessProbe().getHttpGet();
    HTTPGetAction alive = c.getLivenessProbe().getHttpGet();
    HTTPGetAction started = c.getStartupProbe().getHttpGet();
    assertThat(ready.getPath()).isEqualTo(ClusterFormation.READINESS_PATH);
    assertThat(alive.getPath()).isEqualTo(ClusterFormation.LIVENESS_PATH);
    assertThat(started.getPath()).isEqualTo(ClusterFormation.LIVENESS_PATH);
    for (HTTPGetAction probe : List.of(ready, alive, started)) {
      assertThat(portNumber(c, probe.getPort())).as("probe %s", probe.getPath()).isEqualTo(management);
    }
  }

  @Test
  void databasePasswordComesFromASecretThatSecretsShGenerates() throws Exception {
    FleetConfig.Store store = fleet.controller().store();
    assertThat(store.kind()).isEqualTo("postgres");
    assertThat(store.passwordEnv()).isNotEmpty();
    EnvVar password = env(container(controllers.getSpec().getTemplate())).get(store.passwordEnv());
    assertThat(password).as("env %s of the controller", store.passwordEnv()).isNotNull();
    assertThat(password.getValue()).isNull();
    var ref = password.getValueFrom().getSecretKeyRef();
    // No Secret with a literal password among the manifests: secrets.sh creates it.
    assertThat(all).noneMatch(m -> m.object().getKind().equals("Secret"));
    String script = Files.readString(Manifests.DIR.resolve("secrets.sh"));
    assertThat(script).contains("create secret generic " + ref.getName() + " --from-literal=" + ref.getKey() + "=")
        .contains("/dev/urandom").doesNotContain("change-me");
  }

  @Test
  void clusterAndManagementPortsAdmitOnlyControllerPods() throws Exception {
    Map<?, ?> policy = (Map<?, ?>) new org.snakeyaml.engine.v2.api.Load(
        org.snakeyaml.engine.v2.api.LoadSettings.builder().build())
        .loadFromString(Files.readString(Manifests.DIR.resolve(Manifests.NETWORK_POLICY)));
    assertThat(policy.get("kind")).isEqualTo("NetworkPolicy");
    Map<?, ?> spec = (Map<?, ?>) policy.get("spec");
    Map<String, String> controllerLabels = controllers.getSpec().getTemplate().getMetadata().getLabels();
    assertThat(((Map<?, ?>) spec.get("podSelector")).get("matchLabels")).isEqualTo(controllerLabels);
    Map<String, Integer> ports = new HashMap<>();
    container(controllers.getSpec().getTemplate()).getPorts().forEach(p -> ports.put(p.getName(), p.getContainerPort()));
    Map<Integer, Object> fromByPort = new HashMap<>();
    for (Object rule : (List<?>) spec.get("ingress")) {
      Map<?, ?> r = (Map<?, ?>) rule;
      for (Object port : (List<?>) r.get("ports")) {
        fromByPort.put((Integer) ((Map<?, ?>) port).get("port"), r.get("from") == null ? "anyone" : r.get("from"));
      }
    }
    Object onlyControllers = List.of(Map.of("podSelector", Map.of("matchLabels", controllerLabels)));
    assertThat(fromByPort).containsOnlyKeys(ports.values())
        .containsEntry(ports.get("cluster"), onlyControllers)
        .containsEntry(ports.get(ClusterFormation.MANAGEMENT_PORT_NAME), onlyControllers)
        .containsEntry(ports.get("grpc"), "anyone");
  }

  @Test
  void configMapIsMountedWhereTheControllerReadsFleetYaml() {
    Container c = container(controllers.getSpec().getTemplate());
    Path config = Path.of(optionValue(c.getArgs(), "--config"));
    VolumeMount mount = c.getVolumeMounts().stream()
        .filter(m -> Path.of(m.getMountPath()).equals(config.getParent())).findFirst()
        .orElseThrow(() -> new AssertionError("nothing mounted at " + config.getParent()));
    Volume volume = volume(controllers.getSpec().getTemplate(), mount.getName());
    ConfigMap map = Manifests.one(all, ConfigMap.class, volume.getConfigMap().getName());
    assertThat(map.getData()).containsKey(config.getFileName().toString());
  }

  @Test
  void everyControllerNodeMountsOneSharedArtifactStoreAtTheConfiguredPath() {
    FleetConfig cfg = FleetConfigLoader.parse("k8s/config.yaml",
        Manifests.one(all, ConfigMap.class, "abfleet-config").getData().get("fleet.yaml"));
    Path store = Path.of(cfg.controller().artifacts().path());
    Container c = container(controllers.getSpec().getTemplate());
    VolumeMount mount = c.getVolumeMounts().stream().filter(m -> Path.of(m.getMountPath()).equals(store))
        .findFirst().orElseThrow(() -> new AssertionError("nothing mounted at controller.artifacts.path " + store));
    Volume volume = volume(controllers.getSpec().getTemplate(), mount.getName());
    PersistentVolumeClaim claim = Manifests.one(all, PersistentVolumeClaim.class,
        volume.getPersistentVolumeClaim().getClaimName());
    assertThat(claim.getSpec().getAccessModes()).as("uploads reach one node, fetches another").contains("ReadWriteMany");
  }

  @Test
  void controllerTlsFilesComeFromAMountedSecret() {
    FleetConfig.ControllerSecurity tls = fleet.controller().security();
    assertThat(tls.tls()).as("config.yaml names controller.tls").isTrue();
    Container c = container(controllers.getSpec().getTemplate());
    for (String file : List.of(tls.ca(), tls.cert(), tls.key())) {
      Path dir = Path.of(file).getParent();
      VolumeMount mount = c.getVolumeMounts().stream().filter(m -> Path.of(m.getMountPath()).equals(dir))
          .findFirst().orElseThrow(() -> new AssertionError("nothing mounted at " + dir + " for " + file));
      assertThat(volume(controllers.getSpec().getTemplate(), mount.getName()).getSecret()).as(file).isNotNull();
    }
    assertThat(substituted(container(workers.getSpec().getTemplate()))).anyMatch(a -> a.startsWith("--cert="))
        .anyMatch(a -> a.startsWith("--key=")).anyMatch(a -> a.startsWith("--ca="));
  }

  @Test
  void containerArgsAreAbfleetCommandsAndFlags() {
    for (PodTemplateSpec pod : List.of(controllers.getSpec().getTemplate(), workers.getSpec().getTemplate())) {
      Container c = container(pod);
      assertThat(c.getCommand()).as("the image's ENTRYPOINT runs abfleet").isEmpty();
      List<String> args = substituted(c);
      CommandLine.ParseResult parsed = new CommandLine(new Main()).parseArgs(args.toArray(String[]::new));
      assertThat(parsed.subcommand()).as("%s: %s", c.getName(), args).isNotNull();
      assertThat(parsed.subcommand().commandSpec().name()).isEqualTo(args.get(0));
      assertThat(parsed.subcommand().unmatched()).isEmpty();
    }
    assertThat(container(controllers.getSpec().getTemplate()).getArgs().get(0)).isEqualTo("controller");
    assertThat(container(workers.getSpec().getTemplate()).getArgs().get(0)).isEqualTo("worker");
  }

  @Test
  void unknownFlagIsCaughtByTheSameParse() {
    assertThatThrownBy(() -> new CommandLine(new Main()).parseArgs("controller", "--seed-node=x"))
        .isInstanceOf(CommandLine.UnmatchedArgumentException.class);
  }

  @Test
  void workerReachesTheGrpcServiceAndOpensKvm() {
    Container c = container(workers.getSpec().getTemplate());
    Service grpc = Manifests.one(all, Service.class, "abfleet");
    assertThat(optionValue(c.getArgs(), "--controller")).isEqualTo(grpc.getMetadata().getName() + "."
        + grpc.getMetadata().getNamespace() + ".svc.cluster.local:" + grpc.getSpec().getPorts().get(0).getPort());
    VolumeMount kvm = c.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/dev/kvm")).findFirst()
        .orElseThrow(() -> new AssertionError("worker does not mount /dev/kvm"));
    assertThat(volume(workers.getSpec().getTemplate(), kvm.getName()).getHostPath().getType()).isEqualTo("CharDevice");
    assertThat(c.getSecurityContext().getPrivileged())
        .as("an unprivileged container's device cgroup refuses /dev/kvm without a device plugin").isTrue();
    VolumeMount cache = c.getVolumeMounts().stream()
        .filter(m -> m.getMountPath().equals(optionValue(c.getArgs(), "--home"))).findFirst()
        .orElseThrow(() -> new AssertionError("worker --home is not a volume"));
    assertThat(volume(workers.getSpec().getTemplate(), cache.getName()).getHostPath()).isNotNull();
  }

  @Test
  void controllerRunsAsNonRoot() {
    var pod = controllers.getSpec().getTemplate().getSpec().getSecurityContext();
    assertThat(pod.getRunAsNonRoot()).isTrue();
    assertThat(pod.getRunAsUser()).isPositive();
  }

  @Test
  void imagesAreTheDockerfilesTargets() throws Exception {
    Set<String> targets = DockerfileStages.parse(DockerfileStages.FILE).stream()
        .map(DockerfileStages.Stage::name).collect(Collectors.toSet());
    assertThat(container(controllers.getSpec().getTemplate()).getImage()).startsWith("abfleet-controller:");
    assertThat(container(workers.getSpec().getTemplate()).getImage()).startsWith("abfleet-worker:");
    assertThat(targets).contains("controller", "worker");
  }

  /** The container's args with each $(VAR) replaced by a sample value; every VAR must be in its env. */
  static List<String> substituted(Container c) {
    Map<String, EnvVar> env = env(c);
    return c.getArgs().stream().map(a -> {
      Matcher m = ENV_REF.matcher(a);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        assertThat(env).as("%s refers to $(%s)", a, m.group(1)).containsKey(m.group(1));
        m.appendReplacement(out, "sample-" + m.group(1).toLowerCase());
      }
      m.appendTail(out);
      return out.toString();
    }).toList();
  }

  /** The controller and worker containers, by name. */
  static Map<String, Container> containers() {
    return Stream.of(controllers.getSpec().getTemplate(), workers.getSpec().getTemplate())
        .map(ManifestsTest::container).collect(Collectors.toMap(Container::getName, c -> c));
  }

  static Container container(PodTemplateSpec pod) {
    assertThat(pod.getSpec().getContainers()).hasSize(1);
    return pod.getSpec().getContainers().get(0);
  }

  private static Map<String, EnvVar> env(Container c) {
    Map<String, EnvVar> out = new HashMap<>();
    c.getEnv().forEach(e -> out.put(e.getName(), e));
    return out;
  }

  private static Volume volume(PodTemplateSpec pod, String name) {
    return pod.getSpec().getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no volume " + name));
  }

  /** The container port a probe or Service names (by name or number); fails when none is declared. */
  private static int portNumber(Container c, IntOrString port) {
    return c.getPorts().stream()
        .filter(p -> port.getIntVal() != null ? p.getContainerPort().equals(port.getIntVal())
            : port.getStrVal().equals(p.getName()))
        .map(ContainerPort::getContainerPort).findFirst()
        .orElseThrow(() -> new AssertionError("container " + c.getName() + " declares no port " + port));
  }

  private static String optionValue(List<String> args, String option) {
    return args.stream().filter(a -> a.startsWith(option + "=")).map(a -> a.substring(option.length() + 1))
        .findFirst().orElseThrow(() -> new AssertionError("no " + option + "= in " + args));
  }

  /** Equality-based selectors only ("a=b,c=d"), which is what fleet.yaml uses. */
  private static boolean labelSelectorMatches(String selector, Map<String, String> labels) {
    for (String term : selector.split(",")) {
      String[] kv = term.trim().split("==?", 2);
      assertThat(kv).as("selector term %s", term).hasSize(2);
      if (!kv[1].trim().equals(labels.get(kv[0].trim()))) {
        return false;
      }
    }
    return true;
  }
}
