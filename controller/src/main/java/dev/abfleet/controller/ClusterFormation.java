package dev.abfleet.controller;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.management.cluster.bootstrap.ClusterBootstrap;
import org.apache.pekko.management.javadsl.PekkoManagement;

/**
 * How a controller node finds the other nodes, and whether it serves Pekko Management (HTTP
 * health checks {@code /alive} and {@code /ready}, cluster bootstrap, read-only
 * {@code /cluster/members}).
 *
 * <p>{@link Discovery#SEED_NODES}: the node joins the seed nodes of its settings, or itself when
 * there are none. {@link Discovery#KUBERNETES_API}: Pekko Cluster Bootstrap lists the pods that
 * match {@code podLabelSelector} in the node's own namespace through the Kubernetes API, probes
 * their management ports, and the lowest address forms the cluster once
 * {@code requiredContactPoints} of them answer; the others join it. Needs management.
 *
 * <p>Readiness ({@code /ready}) is true when this node is an Up (or WeaklyUp) member, its gRPC
 * server is serving and its event store has not failed; liveness ({@code /alive}) is true while the management server answers.
 *
 * @param managementPort Pekko Management's HTTP port; empty = no management server
 * @param podLabelSelector Kubernetes label selector of the controller pods, e.g.
 *     {@code app=abfleet-controller}; used with KUBERNETES_API only
 * @param requiredContactPoints pods that must answer before a new cluster is formed (set it to
 *     the StatefulSet's replicas so that a partial start never forms two clusters)
 */
public record ClusterFormation(
    Discovery discovery, OptionalInt managementPort, String podLabelSelector, int requiredContactPoints) {

  /** Port name of the management port in the pod spec; discovery asks the API for it. */
  public static final String MANAGEMENT_PORT_NAME = "management";
  /** Path of the readiness endpoint on the management port. */
  public static final String READINESS_PATH = "/ready";
  /** Path of the liveness endpoint on the management port. */
  public static final String LIVENESS_PATH = "/alive";

  /** Where Kubernetes mounts a pod's service account token, CA and namespace. */
  public static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

  /** Pods find each other by contact-point probing; a slow scheduler may start them minutes apart. */
  private static final Duration BOOTSTRAP_JOIN_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration SEED_JOIN_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration MANAGEMENT_START_TIMEOUT = Duration.ofSeconds(30);

  public enum Discovery {
    SEED_NODES,
    KUBERNETES_API
  }

  public ClusterFormation {
    if (discovery == Discovery.KUBERNETES_API && managementPort.isEmpty()) {
      throw new IllegalArgumentException("Kubernetes API discovery needs a management port: "
          + "cluster bootstrap probes the other pods there");
    }
    if (discovery == Discovery.KUBERNETES_API && podLabelSelector.isBlank()) {
      throw new IllegalArgumentException("Kubernetes API discovery needs a pod label selector, "
          + "e.g. app=abfleet-controller");
    }
    if (requiredContactPoints < 1) {
      throw new IllegalArgumentException("requiredContactPoints is " + requiredContactPoints
          + "; expected at least 1");
    }
  }

  /** Seed nodes (or a one-node cluster), no management server: what a single machine runs. */
  public static ClusterFormation seedNodes() {
    return new ClusterFormation(Discovery.SEED_NODES, OptionalInt.empty(), "", 1);
  }

  /** Seed nodes, with management (health checks) on {@code port}. */
  public static ClusterFormation seedNodesWithManagement(int port) {
    return new ClusterFormation(Discovery.SEED_NODES, OptionalInt.of(port), "", 1);
  }

  /** Cluster bootstrap through the Kubernetes API, management on {@code port}. */
  public static ClusterFormation kubernetesApi(int port, String podLabelSelector, int requiredContactPoints) {
    return new ClusterFormation(Discovery.KUBERNETES_API, OptionalInt.of(port), podLabelSelector,
        requiredContactPoints);
  }

  /** True when the node must not join seed nodes or itself: bootstrap decides. */
  boolean bootstraps() {
    return discovery == Discovery.KUBERNETES_API;
  }

  /** How long the node waits to become an Up member. */
  Duration joinTimeout() {
    return bootstraps() ? BOOTSTRAP_JOIN_TIMEOUT : SEED_JOIN_TIMEOUT;
  }

  /**
   * The address management binds. Management has no authentication, so with seed nodes it stays
   * on loopback: health checks and {@code /cluster/members} for this machine only. Cluster
   * bootstrap needs the other pods to reach {@code /bootstrap/seed-nodes} and the kubelet to reach
   * {@code /alive} and {@code /ready}: there it binds the gRPC listen address, serves no
   * {@code /cluster/*} routes, and the manifests' NetworkPolicy admits only controller pods.
   */
  public String managementBindHost(ControllerSettings s) {
    return bootstraps() ? s.grpcHost() : "127.0.0.1";
  }

  /**
   * Pekko settings of this formation, to lay over the node's own. Management binds
   * {@link #managementBindHost} and advertises the cluster host (the address other pods reach).
   */
  Config config(ControllerSettings s) {
    Map<String, Object> values = new HashMap<>();
    if (managementPort.isPresent()) {
      values.put("pekko.management.http.hostname", s.clusterHost());
      values.put("pekko.management.http.port", managementPort.getAsInt());
      values.put("pekko.management.http.bind-hostname", managementBindHost(s));
      values.put("pekko.management.http.bind-port", managementPort.getAsInt());
      // "" unregisters a route provider: each node serves only the routes its formation needs.
      values.put("pekko.management.http.routes." + (bootstraps() ? "cluster-management" : "cluster-bootstrap"), "");
      values.put("pekko.management.health-checks.readiness-checks.grpc-serving",
          GrpcServing.ReadinessCheck.class.getName());
      values.put("pekko.management.health-checks.readiness-checks.store",
          dev.abfleet.controller.store.StoreHealth.ReadinessCheck.class.getName());
    }
    if (bootstraps()) {
      String bootstrap = "pekko.management.cluster.bootstrap.";
      values.put("pekko.cluster.seed-nodes", ConfigValueFactory.fromIterable(List.of()));
      values.put(bootstrap + "contact-point-discovery.discovery-method", "kubernetes-api");
      values.put(bootstrap + "contact-point-discovery.port-name", MANAGEMENT_PORT_NAME);
      values.put(bootstrap + "contact-point-discovery.required-contact-point-nr", requiredContactPoints);
      // The selector is used as given: no service name is substituted into it.
      values.put("pekko.discovery.kubernetes-api.pod-label-selector", podLabelSelector.replace("%", "%%"));
      // Pod IPs, not <ip>.<namespace>.pod.cluster.local names: pod DNS records are optional.
      values.put("pekko.discovery.kubernetes-api.use-raw-ip", true);
    }
    return ConfigFactory.parseMap(values);
  }

  /**
   * Starts the management server and, for Kubernetes API discovery, cluster bootstrap.
   *
   * @throws IllegalStateException if the management port cannot be bound, or bootstrap cannot
   *     read the pod's service account
   */
  void start(ActorSystem<?> system) {
    if (managementPort.isEmpty()) {
      return;
    }
    try {
      PekkoManagement.get(system).start().toCompletableFuture()
          .get(MANAGEMENT_START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting Pekko Management", e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot serve Pekko Management on port "
          + managementPort.getAsInt() + ": " + e.getMessage()
          + "; choose another controller.management_port", e);
    }
    if (bootstraps()) {
      try {
        ClusterBootstrap.get(system).start();
      } catch (Exception e) { // Scala code: checked exceptions (NoSuchFileException) arrive undeclared
        throw new IllegalStateException("cannot start cluster bootstrap through the Kubernetes API: "
            + e + "; run the controller in a pod with a service account (its token and CA are read from "
            + SERVICE_ACCOUNT_DIR + "), or set controller.discovery: seed-nodes", e);
      }
    }
  }
}
