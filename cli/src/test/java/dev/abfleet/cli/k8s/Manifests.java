package dev.abfleet.cli.k8s;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The Kubernetes objects under k8s/, read into fabric8's Kubernetes object model. Strict: a
 * kind without a model class, an apiVersion other than the model's, a value of the wrong type
 * or a field the model does not know (fabric8 keeps those in {@code additionalProperties}) is a
 * {@link Problem} naming the file, document and field path.
 */
final class Manifests {
  static final Path DIR = Path.of("..", "k8s");
  static final String NETWORK_POLICY = "network-policy.yaml";

  /** Kinds the manifests may use. */
  private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
      "Namespace", Namespace.class,
      "ConfigMap", ConfigMap.class,
      "Secret", Secret.class,
      "Service", Service.class,
      "ServiceAccount", ServiceAccount.class,
      "StatefulSet", StatefulSet.class,
      "DaemonSet", DaemonSet.class,
      "Role", Role.class,
      "RoleBinding", RoleBinding.class,
      "PersistentVolumeClaim", PersistentVolumeClaim.class);

  private static final ObjectMapper STRICT = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
      .build();

  /** One object: its file, its position among the file's documents, the model. */
  record Manifest(String file, int document, HasMetadata object) {
    String where() {
      return file + " document " + (document + 1) + " (" + object.getKind() + " "
          + object.getMetadata().getName() + ")";
    }
  }

  static final class Problem extends RuntimeException {
    Problem(String message) {
      super(message);
    }
  }

  private Manifests() {}

  /** Every object of every .yaml file in k8s/. */
  static List<Manifest> all() throws IOException {
    List<Manifest> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(DIR)) {
      // The NetworkPolicy's model (fabric8 networking) is not a dependency: ManifestsTest reads
      // that file as plain YAML.
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml"))
          .filter(p -> !p.getFileName().toString().equals(NETWORK_POLICY)).sorted().toList()) {
        out.addAll(read(f.getFileName().toString(), Files.readString(f)));
      }
    }
    return out;
  }

  /** The objects of one file's text, each checked strictly. */
  static List<Manifest> read(String file, String text) {
    List<Manifest> out = new ArrayList<>();
    int i = 0;
    for (Object doc : new Load(LoadSettings.builder().build()).loadAllFromString(text)) {
      String where = file + " document " + (i + 1);
      if (doc == null) {
        i++;
        continue;
      }
      if (!(doc instanceof Map<?, ?> map)) {
        throw new Problem(where + ": not a mapping");
      }
      Class<? extends HasMetadata> type = KINDS.get(String.valueOf(map.get("kind")));
      if (type == null) {
        throw new Problem(where + ": kind " + map.get("kind") + " has no model here; expected one of "
            + KINDS.keySet().stream().sorted().toList());
      }
      HasMetadata object;
      try {
        object = STRICT.convertValue(map, type);
      } catch (IllegalArgumentException e) {
        throw new Problem(where + ": " + e.getMessage());
      }
      String expectedApi = newInstance(type).getApiVersion();
      if (!expectedApi.equals(map.get("apiVersion"))) {
        throw new Problem(where + ": apiVersion " + map.get("apiVersion") + " for " + map.get("kind")
            + "; expected " + expectedApi);
      }
      if (object.getMetadata() == null || object.getMetadata().getName() == null) {
        throw new Problem(where + ": metadata.name is missing");
      }
      List<String> unknown = new ArrayList<>();
      unknownFields(object, "", unknown);
      if (!unknown.isEmpty()) {
        throw new Problem(where + ": fields unknown to " + type.getSimpleName() + ": " + unknown);
      }
      out.add(new Manifest(file, i, object));
      i++;
    }
    return out;
  }

  /** The one object of {@code kind} named {@code name}. */
  static <T extends HasMetadata> T one(List<Manifest> all, Class<T> kind, String name) {
    List<T> found = all.stream().map(Manifest::object).filter(kind::isInstance).map(kind::cast)
        .filter(o -> o.getMetadata().getName().equals(name)).toList();
    if (found.size() != 1) {
      throw new Problem("expected one " + kind.getSimpleName() + " " + name + " in k8s/, found " + found.size());
    }
    return found.get(0);
  }

  static <T extends HasMetadata> List<T> all(List<Manifest> all, Class<T> kind) {
    return all.stream().map(Manifest::object).filter(kind::isInstance).map(kind::cast).toList();
  }

  /** Paths of fields that the model kept as additional properties, anywhere in the tree. */
  private static void unknownFields(Object node, String path, List<String> out) {
    if (node == null) {
      return;
    }
    if (node instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        unknownFields(list.get(i), path + "[" + i + "]", out);
      }
      return;
    }
    if (node instanceof Map<?, ?> map) {
      map.forEach((k, v) -> unknownFields(v, path + "." + k, out));
      return;
    }
    if (!node.getClass().getName().startsWith("io.fabric8.")) {
      return;
    }
    for (Method m : node.getClass().getMethods()) {
      if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers()) || !m.getName().startsWith("get")
          || m.getDeclaringClass() == Object.class) {
        continue;
      }
      Object value = invoke(m, node);
      if (m.getName().equals("getAdditionalProperties")) {
        if (value instanceof Map<?, ?> extra) {
          extra.keySet().forEach(k -> out.add(path.isEmpty() ? String.valueOf(k) : path.substring(1) + "." + k));
        }
        continue;
      }
      String field = Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
      unknownFields(value, path + "." + field, out);
    }
  }

  private static Object invoke(Method m, Object target) {
    try {
      return m.invoke(target);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("reading " + m + ": " + e, e);
    }
  }

  private static HasMetadata newInstance(Class<? extends HasMetadata> type) {
    try {
      return type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
