#!/usr/bin/env bash
# The device call (GPU machine, PyTorch 2.11 + Triton 3.6 there): tileopt's dependencies
# from .whl/ (made here by wheels.sh), the README's hook example as written, then
# run_models.py (arguments go to it; default --budget 500: the set-up before it takes about
# 70 s of a 600 s call).
set -o pipefail
cd "$(dirname "$0")/../.." || exit 1
SITE=/tmp/tileopt-site
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target "$SITE" .whl/*.whl \
  || { echo "the wheels did not install: run benchmarks/inductor/wheels.sh here, carry .whl"; exit 1; }
export PYTHONPATH="$SITE:$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
OUTDIR=${OUT:-inductor-out}
mkdir -p "$OUTDIR"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -c 'import torch, triton, llvmlite, xdsl, tileopt.integrations.triton as t; print("torch", torch.__version__, "triton", triton.__version__, "llvmlite", llvmlite.__version__)' || exit 1

echo "== the README's hook example"
sed -n '/<!-- triton-hook-example -->/,/^```$/p' README.md | sed '1,2d;$d' > /tmp/readme_hook_example.py
(cd /tmp && timeout 150 python3 readme_hook_example.py) > "$OUTDIR/readme_example.log" 2>&1
echo "exit status $?"
grep -v "^WARNING\|^  warnings.warn" "$OUTDIR/readme_example.log" | tail -n 12

echo "== models"
python3 benchmarks/inductor/run_models.py --out "$OUTDIR" --budget 500 "$@"  # a later --budget wins
