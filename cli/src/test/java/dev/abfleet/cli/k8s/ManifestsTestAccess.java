package dev.abfleet.cli.k8s;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

/** Pieces of the manifests other tests compare with. */
final class ManifestsTestAccess {
  private ManifestsTestAccess() {}

  static PodSecurityContext controllerPodSecurity() throws java.io.IOException {
    return Manifests.one(Manifests.all(), StatefulSet.class, "abfleet-controller").getSpec().getTemplate().getSpec()
        .getSecurityContext();
  }
}
