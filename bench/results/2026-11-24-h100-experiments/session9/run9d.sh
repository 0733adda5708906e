#!/usr/bin/env bash
# Session 9: where the ~0.2 ms outside the kernels of a fill go (nsys trace of HEAD's fill driver)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r9d; mkdir -p $R; trap 'tar czf $OUT/r9d.tgz -C /tmp r9d' EXIT
which nsys || ls -d /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems*/bin/nsys 2>/dev/null
NSYS=$(which nsys 2>/dev/null || ls /opt/nvidia/nsight-systems*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1)
echo "nsys: $NSYS"
for kv in "67108864 0.9 1 32 3" "33554432 0.9 1 64 3"; do
  w=$(echo $kv | cut -d' ' -f4)
  $NSYS profile -t cuda -o $R/p$w --force-overwrite true scratch/bin/fillH_H $kv > $R/fill$w.log 2>&1
  $NSYS stats -r cuda_gpu_trace,cuda_api_trace -f csv -o $R/s$w $R/p$w.nsys-rep > /dev/null 2>&1
  ls $R
done
rm -f $R/*.nsys-rep $R/*.sqlite
