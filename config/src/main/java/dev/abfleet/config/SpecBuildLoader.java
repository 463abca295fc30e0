package dev.abfleet.config;

import dev.abfleet.model.Arch;

import dev.abfleet.model.BuildSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an arm's {@code build:} block: the kernel is built from source before any boot. Paths are
 * checked for syntax here; whether they exist and apply is the builder's to say (a spec file may
 * be validated on a machine that does not hold the source).
 */
final class SpecBuildLoader {
  private static final Set<String> KEYS = Set.of("source", "ref", "patches", "config", "config_fragments", "arch",
      "make_args");
  private static final List<String> BASES = List.of("abfleet-minimal", "tinyconfig", "defconfig");
  private static final List<String> ARCHES = Arch.NAMES;

  private SpecBuildLoader() {}

  static SpecFile.Build build(YamlNode n, Path dir) {
    Map<String, YamlNode> m = n.mapping(KEYS);
    if (!m.containsKey("source")) {
      throw n.problem(n.path() + " has no source; give a kernel source tarball, tree or git repository, e.g."
          + " source: /usr/src/linux-source-6.1.tar.xz");
    }
    Path source = path(m.get("source"), dir, "a kernel source tarball, tree or git repository");
    String ref = m.containsKey("ref") ? nonBlank(m.get("ref"), "a git ref, e.g. v6.1 or a commit id") : null;
    List<Path> patches = new ArrayList<>();
    if (m.containsKey("patches")) {
      for (YamlNode p : m.get("patches").sequence()) {
        patches.add(path(p, dir, "a patch file"));
      }
    }
    String config = "abfleet-minimal";
    if (m.containsKey("config")) {
      String base = nonBlank(m.get("config"), "abfleet-minimal, tinyconfig, defconfig or a .config file");
      config = BASES.contains(base) ? base : resolve(base, dir).toString();
    }
    List<Path> fragments = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    if (m.containsKey("config_fragments")) {
      for (YamlNode f : m.get("config_fragments").sequence()) {
        String text = f.string().trim();
        if (BuildSpec.CONFIG_LINE.matcher(text).matches()) {
          lines.add(text);
        } else if (text.startsWith("CONFIG_") || text.startsWith("#")) {
          throw f.problem(f.path() + " '" + text + "' is not a config line; write CONFIG_NAME=y (or =m, =n, a value)"
              + " or '# CONFIG_NAME is not set'");
        } else {
          fragments.add(path(f, dir, "a config fragment file or a CONFIG_X=y line"));
        }
      }
    }
    String arch = m.containsKey("arch") ? m.get("arch").oneOf(ARCHES) : "x86_64";
    List<String> makeArgs = new ArrayList<>();
    if (m.containsKey("make_args")) {
      for (YamlNode a : m.get("make_args").sequence()) {
        String arg = a.string().trim();
        if (!BuildSpec.MAKE_ARG.matcher(arg).matches()) {
          throw a.problem(a.path() + " '" + arg + "' is not a make variable; write NAME=value, e.g. KCFLAGS=-O2");
        }
        makeArgs.add(arg);
      }
    }
    return new SpecFile.Build(source, ref, patches, config, fragments, lines, arch, makeArgs, n.where());
  }

  private static Path path(YamlNode n, Path dir, String what) {
    return resolve(nonBlank(n, what), dir);
  }

  private static String nonBlank(YamlNode n, String what) {
    String text = n.string().trim();
    if (text.isEmpty() || text.indexOf('\n') >= 0 || text.indexOf('\0') >= 0) {
      throw n.problem(n.path() + " is empty; give " + what);
    }
    return text;
  }

  private static Path resolve(String text, Path dir) {
    return dir == null ? Path.of(text) : dir.resolve(text).normalize();
  }
}
