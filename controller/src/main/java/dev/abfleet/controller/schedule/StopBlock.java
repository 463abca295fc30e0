package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.SessionMessage;

/**
 * Tells a host session to stop the block running under lease {@code epoch} (also one assigned
 * after this arrives).
 *
 * @param afterCurrentBoot true = preemption: the boot in progress finishes and is reported, the
 *     rest of the block is skipped; false = stop now, the VM is killed
 */
public record StopBlock(long epoch, boolean afterCurrentBoot, String reason)
    implements SessionMessage {}
