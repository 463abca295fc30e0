package dev.abfleet.worker.build;

/** Progress of one build, called from the building thread. */
public interface BuildListener {

  /** A listener that ignores everything. */
  BuildListener NONE = new BuildListener() {
    @Override
    public void phase(String phase) {}

    @Override
    public void compiled(int objects, int expected) {}
  };

  /**
   * A step begins: {@code unpack}, {@code import}, {@code checkout} (preparing a new warm tree),
   * {@code patch}, {@code config}, {@code compile}, {@code modules}, {@code store}.
   */
  void phase(String phase);

  /**
   * Objects compiled so far in this build (make's {@code CC} lines).
   *
   * @param expected the objects the last from-scratch build of this configuration (any source
   *                 version) compiled, when this build too starts with nothing compiled and such
   *                 a build is on record; 0 = unknown (always for an incremental rebuild, whose
   *                 size depends on the patch)
   */
  void compiled(int objects, int expected);
}
