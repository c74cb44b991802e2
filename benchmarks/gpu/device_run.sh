#!/usr/bin/env bash
# The device call (one run on the GPU machine): a self-test at small sizes, then the full
# benchmark. Needs benchmarks/gpu/out/ from build.sh, carried with the call. Extra
# arguments go to the full run (e.g. --kernel softmax --target cuda-sm90).
set -o pipefail
cd "$(dirname "$0")/../.." || exit 1
export PYTHONUNBUFFERED=1
LOG=${OUT:-benchmarks/gpu/out/logs}
mkdir -p "$LOG/selftest"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv > "$LOG/gpu.txt" 2>&1
cat "$LOG/gpu.txt"
python3 benchmarks/gpu/run.py --selftest --log-dir "$LOG/selftest" > /dev/null
echo "self-test exit status $? (details: selftest/run.log)"
grep -E "SELFTEST|driver self-test|FAIL" "$LOG/selftest/run.log" | head -n 30
python3 benchmarks/gpu/run.py --log-dir "$LOG" "$@"
