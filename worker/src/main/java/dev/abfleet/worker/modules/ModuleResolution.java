package dev.abfleet.worker.modules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which module files a guest must load, in load order, for a list of wanted modules. Pure.
 *
 * @param loadOrder module files relative to the tree, each after every module it depends on
 * @param builtIn wanted modules (or dependencies) that are built into the kernel: nothing to load
 * @param missing wanted modules that are neither in modules.dep nor built in
 */
public record ModuleResolution(List<String> loadOrder, List<String> builtIn, List<String> missing) {

  public ModuleResolution {
    loadOrder = List.copyOf(loadOrder);
    builtIn = List.copyOf(builtIn);
    missing = List.copyOf(missing);
  }

  /**
   * Resolves {@code wanted} (module names, '-' or '_') against a tree's modules.dep and its
   * modules.builtin names. A dependency is loaded before its dependant; modules.dep lists a
   * module's dependencies so that loading them from last to first works, which is the order
   * followed here. A module wanted twice, or shared by several, is loaded once.
   */
  public static ModuleResolution resolve(ModulesDep dep, Set<String> builtIn, List<String> wanted) {
    Walk w = new Walk(dep, builtIn);
    for (String name : wanted) {
      w.visit(ModulesDep.normalize(name), null);
    }
    return new ModuleResolution(new ArrayList<>(w.order), new ArrayList<>(w.builtIn), new ArrayList<>(w.missing));
  }

  /** True when every wanted module is there (loaded or built in). */
  public boolean complete() {
    return missing.isEmpty();
  }

  private static final class Walk {
    private final ModulesDep dep;
    private final Set<String> builtInNames;
    private final LinkedHashSet<String> order = new LinkedHashSet<>();
    private final LinkedHashSet<String> builtIn = new LinkedHashSet<>();
    private final LinkedHashSet<String> missing = new LinkedHashSet<>();
    private final Set<String> seen = new HashSet<>();

    Walk(ModulesDep dep, Set<String> builtInNames) {
      this.dep = dep;
      this.builtInNames = builtInNames;
    }

    /** @param path the file a dependant's line names, null for a wanted module */
    void visit(String name, String path) {
      if (!seen.add(name)) {
        return;
      }
      var module = dep.get(name);
      if (module.isEmpty()) {
        if (builtInNames.contains(name)) {
          builtIn.add(name);
        } else if (path == null) {
          missing.add(name);
        } else {
          order.add(path); // named as a dependency without a line of its own: load the file named
        }
        return;
      }
      List<String> deps = module.get().deps();
      for (int i = deps.size() - 1; i >= 0; i--) {
        String depPath = deps.get(i);
        ModulesDep.nameOf(depPath).ifPresent(n -> visit(n, depPath));
      }
      order.add(module.get().path());
    }
  }
}
