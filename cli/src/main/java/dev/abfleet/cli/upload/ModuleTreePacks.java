package dev.abfleet.cli.upload;

import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.worker.modules.ModulePack;
import dev.abfleet.worker.modules.ModuleTree;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.vm.VolumeTransport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Packs the part of an arm's module tree its guest can need ({@link ModulePack}), so that the
 * tree travels with the spec like the kernel. The tree is the arm's {@code modules_dir} or the
 * one beside its kernel, when it is a directory on this machine; depmod output for trees without
 * modules.dep and the packs are kept under the cache directory, so a repeated submit reads only
 * modules.dep and the few modules it packs.
 */
final class ModuleTreePacks {

  private final Path cacheDir;
  private final CommandRunner runner;

  /**
   * @param cacheDir the client's abfleet cache (depmod output, packs)
   * @param runner runs depmod for trees that have no modules.dep
   */
  ModuleTreePacks(Path cacheDir, CommandRunner runner) {
    this.cacheDir = cacheDir;
    this.runner = runner;
  }

  /**
   * The packed tree of {@code arm} as a local artifact (its file here, for {@link SpecUploads}
   * to upload); empty when the arm names no tree readable here.
   *
   * @param kernel the arm's kernel on this machine
   * @param hostVolume the benchmark shares a host volume, so the guest may load any transport's modules
   * @throws Problem the tree cannot be read or indexed (the message names the tree and the fix)
   */
  Optional<Artifact> pack(Arm.Builder arm, Path kernel, boolean hostVolume) {
    Optional<ModuleTree> tree = arm.getModulesDir().isEmpty() ? ModuleTree.beside(kernel)
        : Optional.of(ModuleTree.at(Path.of(arm.getModulesDir()))).filter(t -> Files.isDirectory(t.dir()));
    if (tree.isEmpty()) {
      return Optional.empty();
    }
    List<String> forVolume = new ArrayList<>();
    if (hostVolume) {
      for (VolumeTransport t : VolumeTransport.values()) {
        forVolume.addAll(t.modules());
      }
    }
    try {
      ModuleTree.Index index = tree.get().index(cacheDir, runner);
      byte[] archive = ModulePack.archive(tree.get(), index, ModulePack.wanted(arm.getModulesList(), forVolume));
      ModulePack.Packed p = ModulePack.store(archive, cacheDir);
      return Optional.of(Artifact.newBuilder().setSha256(p.sha256()).setUri(p.path().toString())
          .setSizeBytes(archive.length).build());
    } catch (IOException e) {
      throw new Problem("cannot pack the module tree " + tree.get().dir() + " of arm " + arm.getName() + ": "
          + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Problem("interrupted while packing the module tree " + tree.get().dir());
    }
  }
}
