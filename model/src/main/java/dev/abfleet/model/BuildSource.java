package dev.abfleet.model;

import java.nio.file.Path;

/** Where a kernel tree comes from. */
public sealed interface BuildSource {

  /**
   * A source archive ({@code .tar.xz}, {@code .tar.gz}, {@code .tar}) holding one top-level
   * directory, which is stripped. Identified by the sha256 of the file.
   */
  record Tarball(Path file) implements BuildSource {}

  /**
   * An unpacked kernel tree, copied before building (the copy is cleaned with {@code make
   * mrproper} if the tree was built in place). Identified by its file names, sizes and
   * modification times: a key of this source is meaningful on this machine only.
   */
  record Tree(Path dir) implements BuildSource {}

  /** A local git repository and a branch, tag or commit in it; identified by the commit id. */
  record Git(Path repo, String ref) implements BuildSource {}
}
