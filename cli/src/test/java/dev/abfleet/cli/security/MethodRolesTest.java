package dev.abfleet.cli.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.security.MethodRoles;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every generated gRPC method has an access rule, and the table names no method that is gone. */
class MethodRolesTest {
  @Test
  void everyGeneratedMethodHasARule() {
    List<String> generated = new ArrayList<>();
    for (ServiceDescriptor s : GrpcServices.all()) {
      for (MethodDescriptor<?, ?> m : s.getMethods()) {
        generated.add(m.getFullMethodName());
      }
    }
    assertThat(generated).hasSizeGreaterThanOrEqualTo(16);
    assertThat(generated).allSatisfy(m -> assertThat(MethodRoles.of(m)).as(m
        + " is missing from MethodRoles: add the role it needs").isPresent());
    assertThat(MethodRoles.methods()).containsExactlyInAnyOrderElementsOf(generated);
  }

  @Test
  void onlyConnectNeedsAWorkerCertificate() {
    assertThat(MethodRoles.methods()).filteredOn(m -> MethodRoles.of(m).orElseThrow().workerOnly())
        .containsExactly("fleet.v1.WorkerService/Connect");
  }
}
