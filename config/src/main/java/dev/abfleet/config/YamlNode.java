package dev.abfleet.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * A YAML node that remembers where it came from, so every validation error reads
 * {@code fleet.yaml:14: <problem>; <fix>}.
 */
final class YamlNode {
  private final String file;
  private final Node node;
  private final String path;

  YamlNode(String file, Node node, String path) {
    this.file = file;
    this.node = node;
    this.path = path;
  }

  int line() {
    return node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
  }

  /** "file:line" of this node, for messages raised after loading. */
  String where() {
    return file + ":" + line();
  }

  Problem problem(String message) {
    return new Problem(file + ":" + line() + ": " + message);
  }

  String path() {
    return path;
  }

  /** This node's place for messages: its path, or "the top level" for the root. */
  private String place() {
    return path.isEmpty() ? "the top level" : path;
  }

  /** Children of a mapping, in file order; rejects keys outside {@code allowed}. */
  Map<String, YamlNode> mapping(Set<String> allowed) {
    if (!(node instanceof MappingNode m)) {
      throw problem(place() + " must be a mapping (key: value lines)");
    }
    Map<String, YamlNode> out = new LinkedHashMap<>();
    for (NodeTuple t : m.getValue()) {
      if (!(t.getKeyNode() instanceof ScalarNode k)) {
        throw new YamlNode(file, t.getKeyNode(), path).problem("keys " + (path.isEmpty() ? "at the top level" : "under " + path)
            + " must be plain words");
      }
      String key = k.getValue();
      YamlNode keyNode = new YamlNode(file, k, path);
      if (allowed != null && !allowed.contains(key)) {
        throw keyNode.problem("unknown key '" + key + "' " + (path.isEmpty() ? "at the top level" : "under " + path)
            + "; expected one of "
            + String.join(", ", allowed.stream().sorted().toList()));
      }
      if (out.containsKey(key)) {
        throw keyNode.problem("duplicate key '" + key + "' " + (path.isEmpty() ? "at the top level" : "under " + path)
            + "; keep one");
      }
      out.put(key, new YamlNode(file, t.getValueNode(), path.isEmpty() ? key : path + "." + key));
    }
    return out;
  }

  List<YamlNode> sequence() {
    if (!(node instanceof SequenceNode s)) {
      throw problem(path + " must be a list, e.g. [a, b]");
    }
    List<YamlNode> out = new ArrayList<>();
    for (int i = 0; i < s.getValue().size(); i++) {
      out.add(new YamlNode(file, s.getValue().get(i), path + "[" + i + "]"));
    }
    return out;
  }

  /** True for a single value (not a mapping or a list). */
  boolean scalar() {
    return node instanceof ScalarNode;
  }

  String string() {
    if (!(node instanceof ScalarNode s)) {
      throw problem(path + " must be a single value");
    }
    return s.getValue();
  }

  List<String> strings() {
    return sequence().stream().map(YamlNode::string).toList();
  }

  int integer(int min, int max) {
    String s = string();
    try {
      int v = Integer.parseInt(s.trim());
      if (v < min || v > max) {
        throw problem(path + " is " + v + "; expected a whole number from " + min + " to " + max);
      }
      return v;
    } catch (NumberFormatException e) {
      throw problem(path + " is '" + s + "'; expected a whole number from " + min + " to " + max);
    }
  }

  /** A size in bytes, see {@link dev.abfleet.config.ByteSize}. */
  long bytes() {
    String s = string();
    return dev.abfleet.config.ByteSize.parse(s).orElseThrow(() ->
        problem(path + " is '" + s + "'; expected " + dev.abfleet.config.ByteSize.EXPECTED));
  }

  double number(double minExclusive, double maxExclusive) {
    String s = string();
    try {
      double v = Double.parseDouble(s.trim());
      if (!(v > minExclusive && v < maxExclusive)) {
        throw problem(path + " is " + s + "; expected a number between " + minExclusive + " and " + maxExclusive);
      }
      return v;
    } catch (NumberFormatException e) {
      throw problem(path + " is '" + s + "'; expected a number between " + minExclusive + " and " + maxExclusive);
    }
  }

  /** true or false (YAML 1.2 core spelling). */
  boolean bool() {
    return oneOf(List.of("true", "false")).equals("true");
  }

  String oneOf(List<String> choices) {
    String s = string();
    if (!choices.contains(s)) {
      throw problem(path + " is '" + s + "'; expected one of " + String.join(", ", choices));
    }
    return s;
  }
}
