#!/bin/sh
# Builds the example's static benchmark binary beside this script, for the guest's CPU:
#   sh build.sh                              # x86_64 guests, with the host's gcc
#   CC=aarch64-linux-gnu-gcc sh build.sh     # arm64 guests (Debian: gcc-aarch64-linux-gnu)
# The binary is not committed: build it before running the experiment, since abfleet packs this
# directory as it is.
set -eu
: "${CC:=gcc}"
cd "$(dirname "$0")"
"$CC" -std=c11 -O2 -Wall -static -o bench bench.c
echo "built $(pwd)/bench with $CC"
