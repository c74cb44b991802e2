#!/usr/bin/env bash
# Prepare benchmarks/gpu/out/ for run.py (on this machine, before the device call):
#   out/triton/<target>/<kernel>.{ptx,json}   Triton 3.6's PTX and metadata, from the corpus
#   out/tileopt/<target>/<kernel>.ptx          tileopt's PTX for the same kernel
#   out/tileopt/<target>/<kernel>.meta.json    how it was made (route), its shared bytes,
#                                              ptxas's verdict, or why there is no PTX
#   out/build.log                              every command and its errors
# out/ is ignored by git; the device call carries it.
#
# tileopt's PTX is made from the corpus .ttir with the nvidia-sm80/sm90 pipeline ("ttir").
# Where that does not reach the LLVM dialect yet, from Triton's .ttgir through the
# pipeline's llir stage ("ttgir"), then through the lowering passes named in LLIR_PASSES
# ("passes"); the table shows which route a kernel took. ROUTES chooses and orders them.
# The hand-written dot kernels (DOTS) have no Triton PTX: one dots/<kernel>.ttir for both
# targets and a dots/<target>/<kernel>.json (options, signature; it goes to out/triton/),
# so only the ttir route applies.
#
# Environment: TILEOPT, TILEOPT_TRANSLATE (the commands; default from PATH), TILEOPT_CORPUS,
# PIPELINE_SUFFIX ("-triton39" with TILEOPT_CORPUS=../shared/corpus-3.9: Triton 3.9's
# kernels through tileopt's 3.9 pipelines; KERNELS must then leave out block_ptr_matmul),
# ROUTES (default "ttir ttgir passes"), KERNELS, TARGETS, PTXAS (default: what
# tileopt.target.ptxas finds, the nvidia-cuda-nvcc wheel's first; empty: none).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CORPUS=${TILEOPT_CORPUS:-$REPO/../shared/corpus}
BUILD=$HERE/out
TILEOPT=${TILEOPT:-tileopt}
TRANSLATE=${TILEOPT_TRANSLATE:-tileopt-translate}
ROUTES=${ROUTES:-"ttir ttgir passes"}
KERNELS=${KERNELS:-"add add_nodiv axpy_f16 gelu softmax layernorm_fwd sum_rows sum_cols cumsum transpose atomic_hist matmul matmul_small block_ptr_matmul"}
DOTS=${DOTS:-"dot_bf16_64x32x16 dot_tf32_64x64x32 dot_ieee_f32_64x64x32 dot_fma_f32_32x32x16 dot_acc_f16_64x64x32 dot_chain_f16_64x64x32"}
TARGETS=${TARGETS:-"cuda-sm80 cuda-sm90"}
PIPELINE_SUFFIX=${PIPELINE_SUFFIX:-}

if [ ! -f "$CORPUS/README.md" ]; then
  echo "corpus not found at $CORPUS (set TILEOPT_CORPUS)" >&2
  exit 1
fi
command -v "$TILEOPT" >/dev/null || { echo "$TILEOPT not on PATH (activate tileopt's venv)" >&2; exit 1; }
# The Python that runs $TILEOPT (its script's #! line) asks tileopt's one ptxas lookup.
PTXAS=${PTXAS-$("$(sed -n '1s/^#!//p' "$(command -v "$TILEOPT")")" -c \
  'from tileopt.target.ptxas import find_ptxas; print(find_ptxas() or "")' 2>/dev/null)}
mkdir -p "$BUILD"
LOG=$BUILD/build.log
: > "$LOG"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

json_string() {  # a JSON string literal of $1 (first line, quotes and backslashes escaped)
  printf '"%s"' "$(printf '%s' "$1" | head -n 1 | cut -c1-300 | sed 's/\\/\\\\/g; s/"/\\"/g; s/\t/ /g')"
}

for target in $TARGETS; do
  case $target in
    cuda-sm80) arch=sm_80; cc=80; pipeline=nvidia-sm80$PIPELINE_SUFFIX ;;
    cuda-sm90) arch=sm_90a; cc=90; pipeline=nvidia-sm90$PIPELINE_SUFFIX ;;
    *) echo "unknown target $target" >&2; exit 1 ;;
  esac
  LLIR_PASSES=${LLIR_PASSES:-"--convert-scf-to-cf --allocate-shared-memory-nv=compute-capability=$cc --convert-triton-gpu-to-llvm --canonicalize --cse"}
  mkdir -p "$BUILD/triton/$target" "$BUILD/tileopt/$target"
  for kernel in $KERNELS $DOTS; do
    src=$CORPUS/$target
    ttir=$src/$kernel.ttir
    if [ ! -f "$src/$kernel.json" ]; then
      src=$HERE/dots/$target
      ttir=$HERE/dots/$kernel.ttir
    fi
    cp "$src/$kernel.json" "$BUILD/triton/$target/"
    [ -f "$src/$kernel.ptx" ] && cp "$src/$kernel.ptx" "$BUILD/triton/$target/"
    dest=$BUILD/tileopt/$target
    rm -f "$dest/$kernel.ptx" "$dest/$kernel.meta.json"
    error="no route tried"
    made=""
    # The kernel's compile options, as Triton compiled it (matmul: 8 warps, 3 stages).
    params=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(" ".join("%s=%d" % (k.replace("_", "-"), d[k]) for k in ("num_warps", "num_ctas", "num_stages") if k in d))' "$src/$kernel.json")
    for route in $ROUTES; do
      mlir=$WORK/$kernel.$target.$route.mlir
      [ "$route" = ttir ] && [ ! -f "$ttir" ] && continue
      [ "$route" != ttir ] && [ ! -f "$src/$kernel.ttgir" ] && continue
      case $route in
        ttir)   cmd=("$TILEOPT" "$ttir" "--pass-pipeline=$pipeline{$params}" -o "$mlir") ;;
        ttgir)  cmd=("$TILEOPT" "$src/$kernel.ttgir" "--pass-pipeline=$pipeline{$params}" --start-at=llir -o "$mlir") ;;
        passes) # shellcheck disable=SC2206
                cmd=("$TILEOPT" "$src/$kernel.ttgir" $LLIR_PASSES -o "$mlir") ;;
        *) echo "unknown route $route" >&2; exit 1 ;;
      esac
      echo "== $target $kernel [$route]: ${cmd[*]}" >> "$LOG"
      start=$(date +%s.%N)
      if ! "${cmd[@]}" 2> "$WORK/err"; then
        cat "$WORK/err" >> "$LOG"
        error="[$route] $(grep -m1 -i 'error' "$WORK/err" || head -n 1 "$WORK/err")"
        continue
      fi
      if ! grep -q "llvm.func" "$mlir"; then
        error="[$route] the pipeline stops before the LLVM dialect"
        echo "   no llvm.func in the output" >> "$LOG"
        continue
      fi
      if ! "$TRANSLATE" --emit=ptx "--arch=$arch" "$mlir" -o "$WORK/$kernel.ptx" 2> "$WORK/err"; then
        cat "$WORK/err" >> "$LOG"
        error="[$route] tileopt-translate: $(head -n 1 "$WORK/err")"
        continue
      fi
      # bc writes ".82" for under a second, which is not JSON: printf gives "0.823"
      seconds=$(printf "%.3f" "$(echo "$(date +%s.%N) - $start" | bc)")
      shared=$(grep -o -m1 'ttg.shared = [0-9]*' "$mlir" | grep -o '[0-9]*$')
      ptxas_ok="not run"
      if [ -n "$PTXAS" ]; then
        if "$PTXAS" "-arch=$arch" "$WORK/$kernel.ptx" -o "$WORK/$kernel.cubin" 2> "$WORK/err"; then
          ptxas_ok="ok"
        else
          ptxas_ok=$(head -n 1 "$WORK/err")
          cat "$WORK/err" >> "$LOG"
        fi
      fi
      cp "$WORK/$kernel.ptx" "$dest/$kernel.ptx"
      printf '{"route": "%s", "shared": %s, "seconds": %s, "ptxas": %s}\n' \
        "$route" "${shared:-0}" "$seconds" "$(json_string "$ptxas_ok")" > "$dest/$kernel.meta.json"
      made=$route
      break
    done
    if [ -z "$made" ]; then
      printf '{"error": %s}\n' "$(json_string "$error")" > "$dest/$kernel.meta.json"
      echo "$target $kernel: no PTX ($error)"
    else
      echo "$target $kernel: PTX via $made (ptxas: $ptxas_ok)"
    fi
  done
done
echo "out/ is ready: $(du -sh "$BUILD" | cut -f1); details in $LOG"
