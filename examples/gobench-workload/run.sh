#!/bin/sh
# The example workload's command in the guest (run: sh /workload/run.sh). abfleet runs it in the
# benchmark's volume directory and reads its standard output as Go benchmark text; stderr goes to
# the guest's console. The workload's files are under $ABFLEET_WORKLOAD (/workload).
set -eu
bench="${ABFLEET_WORKLOAD:-$(dirname "$0")}/bench"
if [ ! -x "$bench" ]; then
    echo "run.sh: $bench is missing: run build.sh before the experiment" >&2
    exit 2
fi
mkdir -p gobench-workload
cd gobench-workload
"$bench" 3 200
