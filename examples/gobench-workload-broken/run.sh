#!/bin/sh
# A deliberately broken workload: it prints a malformed Go benchmark line (a value that is not a
# number) and exits with status 3. abfleet fails every boot of it as HARNESS, quoting the line:
#   workload exited with status 3; first bad line: stdout line 2
#   'BenchmarkStat-1  1000  fast ns/op' (value 'fast' is not a number)
echo "goos: linux"
echo "BenchmarkStat-1  1000  fast ns/op"
exit 3
