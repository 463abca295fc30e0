package dev.abfleet.worker.modules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed {@code modules.dep} (as {@code depmod} writes it): one line per module,
 * {@code kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/fscache/fscache.ko ...}, paths
 * relative to the module tree, dependencies listed so that loading them from last to first
 * works. Pure: bad lines become {@link Problem}s and parsing goes on.
 *
 * @param modules every module by name ({@link #nameOf}), in file order
 * @param problems lines that are not {@code path: deps}
 */
public record ModulesDep(Map<String, Module> modules, List<Problem> problems) {

  /**
   * One module.
   *
   * @param name the module name, with '-' written as '_' as the kernel does
   * @param path the module file relative to the tree, e.g. {@code kernel/fs/9p/9p.ko}
   * @param deps the files it depends on, relative to the tree, in modules.dep order
   */
  public record Module(String name, String path, List<String> deps) {
    public Module {
      deps = List.copyOf(deps);
    }
  }

  /** A line that could not be read: 1-based line number and why. */
  public record Problem(int line, String message) {}

  public ModulesDep {
    modules = Map.copyOf(modules);
    problems = List.copyOf(problems);
  }

  /** Parses the lines of a modules.dep file; element i is line i+1. */
  public static ModulesDep parse(List<String> lines) {
    Map<String, Module> modules = new LinkedHashMap<>();
    List<Problem> problems = new ArrayList<>();
    int number = 0;
    for (String raw : lines) {
      number++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        problems.add(new Problem(number, "expected 'path.ko: deps', got '" + excerpt(line) + "'"));
        continue;
      }
      String path = line.substring(0, colon).strip();
      Optional<String> name = nameOf(path);
      if (name.isEmpty()) {
        problems.add(new Problem(number, "'" + excerpt(path) + "' is not a .ko module file"));
        continue;
      }
      String rest = line.substring(colon + 1).strip();
      List<String> deps = rest.isEmpty() ? List.of() : List.of(rest.split("\\s+"));
      modules.putIfAbsent(name.get(), new Module(name.get(), path, deps));
    }
    return new ModulesDep(modules, problems);
  }

  /**
   * The module name of a module file: its base name without {@code .ko} (and a compression
   * suffix {@code .xz}, {@code .gz}, {@code .zst}), '-' written as '_'
   * ({@code kernel/drivers/char/hw_random/virtio-rng.ko.xz} is {@code virtio_rng}); empty when
   * the path is not a module file.
   */
  public static Optional<String> nameOf(String path) {
    String base = path.substring(path.lastIndexOf('/') + 1);
    for (String suffix : List.of(".ko", ".ko.xz", ".ko.gz", ".ko.zst")) {
      if (base.endsWith(suffix) && base.length() > suffix.length()) {
        return Optional.of(normalize(base.substring(0, base.length() - suffix.length())));
      }
    }
    return Optional.empty();
  }

  /** A module name as the kernel spells it: '-' and '_' are the same character to modprobe. */
  public static String normalize(String name) {
    return name.replace('-', '_');
  }

  public Optional<Module> get(String name) {
    return Optional.ofNullable(modules.get(normalize(name)));
  }

  private static String excerpt(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
