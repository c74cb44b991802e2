#!/usr/bin/env bash
# Every corpus .ttir through every shipped pipeline, written to one folder, so that a
# refactor can be checked to change no output:
#
#   bash benchmarks/output_snapshot.sh before/      # on the old commit
#   bash benchmarks/output_snapshot.sh after/       # on the new one
#   diff -r before after && echo identical
#
# Per kernel and target: the ttgir stage, the whole pipeline, and for NVIDIA the PTX of
# tileopt-translate; each with its stderr (error messages are output too). Prints a table
# of how many runs succeeded per target. Uses the tileopt of .venv/ (or of PATH).
set -uo pipefail
out=${1:?usage: output_snapshot.sh OUTDIR}
cd "$(dirname "$0")/.."
corpus=${TILEOPT_CORPUS:-../shared/corpus}
bin=.venv/bin; [ -x $bin/tileopt ] || bin=$(dirname "$(command -v tileopt)")
mkdir -p "$out"
declare -A pipeline=([cuda-sm80]=nvidia-sm80 [cuda-sm90]=nvidia-sm90 [hip-gfx942]=amd-cdna3 [hip-gfx1100]=amd-rdna3)
declare -A arch=([cuda-sm80]=sm_80 [cuda-sm90]=sm_90a)
printf '%-12s %8s %8s %8s %8s\n' target kernels ttgir full ptx
for t in cuda-sm80 cuda-sm90 hip-gfx942 hip-gfx1100; do
  n=0 ttgir=0 full=0 ptx=0
  for f in "$corpus/$t"/*.ttir; do
    k=$(basename "$f" .ttir); o="$out/$t.$k"; n=$((n + 1))
    $bin/tileopt "$f" --pass-pipeline=${pipeline[$t]} --stop-after=ttgir -o "$o.ttgir" 2> "$o.ttgir.err" && ttgir=$((ttgir + 1))
    $bin/tileopt "$f" --pass-pipeline=${pipeline[$t]} -o "$o.full.mlir" 2> "$o.full.err" && full=$((full + 1))
    if [ -n "${arch[$t]:-}" ] && [ -s "$o.full.mlir" ]; then
      $bin/tileopt-translate "$o.full.mlir" --emit=ptx --arch=${arch[$t]} -o "$o.ptx" 2> "$o.ptx.err" && ptx=$((ptx + 1))
    fi
  done
  printf '%-12s %8d %8d %8d %8s\n' $t $n $ttgir $full "$([ -n "${arch[$t]:-}" ] && echo $ptx || echo -)"
done
