package dev.abfleet.cli.upload;

import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.worker.modules.ModulePack;
import dev.abfleet.worker.modules.ModuleTree;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.ProcessRunner;
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
public final class ModuleTreePacks {

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

  /** Packs with depmod run as a process when a tree has no modules.dep. */
  public ModuleTreePacks(Path cacheDir) {
    this(cacheDir, new ProcessRunner());
  }

  /**
   * The spec with each arm's module tree packed ({@code modules_tree}, a file here), for every
   * arm whose kernel is a file on this machine with a tree beside it or a {@code modules_dir}
   * here, and that has no packed tree yet. The client packs before it uploads; a controller
   * that finds the kernels of its nightly runs on its own disk packs before it stores them.
   */
  public ExperimentSpec packAll(ExperimentSpec spec) {
    ExperimentSpec.Builder b = spec.toBuilder();
    boolean hostVolume = spec.getBenchmark().getVolume().equals("host");
    for (Arm.Builder arm : b.getArmsBuilderList()) {
      Optional<Path> kernel = SpecUploads.localFile(arm.getBoot().getKernel());
      if (kernel.isPresent() && arm.getBoot().getModulesTree().getSha256().isEmpty()) {
        pack(arm, kernel.get(), hostVolume).ifPresent(tree -> {
          arm.getBootBuilder().setModulesTree(tree);
          arm.getBootBuilder().clearModulesDir();
        });
      }
    }
    return b.build();
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
    Optional<ModuleTree> tree = arm.getBoot().getModulesDir().isEmpty() ? ModuleTree.beside(kernel)
        : Optional.of(ModuleTree.at(Path.of(arm.getBoot().getModulesDir()))).filter(t -> Files.isDirectory(t.dir()));
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
      byte[] archive = ModulePack.archive(tree.get(), index, ModulePack.wanted(arm.getBoot().getModulesList(), forVolume));
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
