package dev.abfleet.cli.security;

import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import io.grpc.ServiceDescriptor;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Every gRPC service generated from the .proto files: the {@code *Grpc} classes next to
 * ExperimentServiceGrpc, found on the class path so that a new service is covered without
 * editing the tests.
 */
final class GrpcServices {
  private static final String PACKAGE = "dev/abfleet/proto/fleet/v1/";

  private GrpcServices() {}

  static List<ServiceDescriptor> all() {
    List<String> names = new ArrayList<>();
    try {
      Path where = Path.of(ExperimentServiceGrpc.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI());
      if (Files.isDirectory(where)) {
        try (Stream<Path> files = Files.list(where.resolve(PACKAGE))) {
          files.map(p -> p.getFileName().toString()).forEach(names::add);
        }
      } else {
        try (JarFile jar = new JarFile(where.toFile())) {
          jar.stream().map(e -> e.getName()).filter(n -> n.startsWith(PACKAGE))
              .map(n -> n.substring(PACKAGE.length())).forEach(names::add);
        }
      }
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    List<ServiceDescriptor> services = new ArrayList<>();
    for (String n : names) {
      if (n.endsWith("Grpc.class")) {
        try {
          Class<?> c = Class.forName(PACKAGE.replace('/', '.') + n.substring(0, n.length() - 6));
          services.add((ServiceDescriptor) c.getMethod("getServiceDescriptor").invoke(null));
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return services;
  }
}
