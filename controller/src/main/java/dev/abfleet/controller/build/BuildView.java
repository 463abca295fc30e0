package dev.abfleet.controller.build;

import dev.abfleet.controller.CborSerializable;

/** A build as clients see it: its state and, while it builds, how far the attempt got. */
public record BuildView(BuildState state, Progress progress) implements CborSerializable {

  /**
   * @param phase the builder's step ("fetch", "unpack", "config", "compile", "upload"...); empty = not started
   * @param objects objects compiled so far; 0 = not compiling yet
   * @param expected objects a full build of the configuration compiled last time there; 0 = unknown
   */
  public record Progress(String phase, int objects, int expected) implements CborSerializable {
    public static final Progress NONE = new Progress("", 0, 0);
  }
}
