#!/bin/sh
# Guest command of param-check.yaml: proves the booted kernel has the fuse.spin_wait_us
# parameter, reports the value the kernel command line gave it, then that a write through
# sysfs takes effect (the arms vary the budget at boot; a tuning run may vary it at runtime).
# Prints abfleet JSON lines; a kernel without the patch has no such file and fails the boot
# as HARNESS with this script's message.
set -eu
param=/sys/module/fuse/parameters/spin_wait_us
if [ ! -f "$param" ]; then
    echo "run.sh: $param is missing: the kernel lacks spin-wait-*.patch (or fuse)" >&2
    exit 2
fi
echo "{\"metric\":\"spin_wait_us_boot\",\"value\":$(cat "$param"),\"unit\":\"us\",\"better\":\"higher\"}"
before=$(cat "$param")
echo 7 > "$param"
echo "{\"metric\":\"spin_wait_us_written\",\"value\":$(cat "$param"),\"unit\":\"us\",\"better\":\"higher\"}"
echo "$before" > "$param"
