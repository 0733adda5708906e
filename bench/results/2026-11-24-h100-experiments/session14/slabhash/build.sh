#!/bin/sh
# run from inside this directory (the copy of /tmp/slabhash)
set -e
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -arch=sm_90 -ISlabHash/src -ISlabHash/src/concurrent -ISlabAlloc/src bench_slab.cu -o bench_slab
