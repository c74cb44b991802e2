#!/usr/bin/env bash
# Here, before the device call: tileopt's runtime dependencies (pyproject.toml's pins and
# what they need) as CPython 3.12 x86-64 wheels in .whl/ at the repository root, for the
# GPU machine, which cannot reach a package index. The call carries .whl (64 MiB at most
# with the working tree): xdsl's wheel is cut down to its package (its docs and tests are
# most of it); llvmlite's library is the rest (recompressed with LZMA).
set -euo pipefail
cd "$(dirname "$0")/../.."
exclude=$(git rev-parse --git-common-dir)/info/exclude
grep -qx '/.whl/' "$exclude" 2>/dev/null || echo '/.whl/' >> "$exclude"
rm -rf .whl && mkdir .whl
read -r -a pins < <(python3 -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))')
python3 -m pip download -q --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
  --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d .whl "${pins[@]}"
# The GPU machine's Python has numpy (PyTorch needs it): its wheel would push the call past
# 64 MiB, so it stays here.
rm -f .whl/numpy-*.whl
python3 - <<'PY'
import glob, os, zipfile
[path] = glob.glob(".whl/xdsl-*.whl")
kept = path + ".tmp"
with zipfile.ZipFile(path) as src, zipfile.ZipFile(kept, "w", zipfile.ZIP_DEFLATED) as dst:
    for item in src.infolist():
        top = item.filename.split("/")[0]
        if top == "xdsl" or top.endswith(".dist-info"):
            dst.writestr(item, src.read(item))
os.replace(kept, path)
# llvmlite's library is most of the bytes: LZMA (which pip reads) keeps the call under its
# 64 MiB limit with the working tree.
[path] = glob.glob(".whl/llvmlite-*.whl")
with zipfile.ZipFile(path) as src, zipfile.ZipFile(kept, "w", zipfile.ZIP_LZMA) as dst:
    for item in src.infolist():
        dst.writestr(item.filename, src.read(item), compress_type=zipfile.ZIP_LZMA)
os.replace(kept, path)
PY
ls -l .whl
du -cb .whl/*.whl | tail -n 1
