package dev.abfleet.controller.experiment;

import dev.abfleet.controller.CborSerializable;

/** Reply to RecordRun: what the report did to the experiment. */
public enum RecordResult implements CborSerializable {
  /** Counted for its pair. */
  RECORDED,
  /** This run id was recorded before; nothing changed. */
  DUPLICATE,
  /** Not the block in flight under that lease epoch; counted in rejectedStale. */
  REJECTED_STALE,
  /**
   * An INFRA failure, or the last boot of a block with an interfered boot that the quiet-host
   * policy re-runs: the block was abandoned and its pair runs again.
   */
  ABANDONED,
  /** The experiment is not running (unknown, completed, cancelled or failed). */
  NOT_RUNNING
}
