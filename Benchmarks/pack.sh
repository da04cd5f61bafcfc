#!/usr/bin/env bash
# Packing benchmark: `tessera bundle create` on a generated folder of 200 images (100 PNG, 100
# JPEG, 512×384) against `tar cf - | xz -6` on the same files, in one run: time and size ratios.
#
#   Benchmarks/pack.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
. Benchmarks/lib/prepare.sh
python3 Benchmarks/lib/make_folder.py "$WORK/pack-input" 200
python3 - "$WORK" "$RUNS" <<'PY'
import json, sys
work, runs = sys.argv[1], sys.argv[2]
json.dump({"title": "Pack a folder of 200 images (100 PNG, 100 JPEG)", "cases": [{
    "input": "200 images", "subject": [".build/release/tessera", "bundle", "create", f"{work}/pack.tsb", f"{work}/pack-input"],
    "peers": {"tar cf - | xz -6": ["sh", "-c", f"tar cf - -C {work} pack-input | xz -6 > {work}/pack.tar.xz"]}}]},
    open(f"{work}/pack.json", "w"))
PY
python3 Benchmarks/lib/measure.py "$RUNS" "$WORK/pack.json"
bundle=$(stat -c %s "$WORK/pack.tsb"); tarxz=$(stat -c %s "$WORK/pack.tar.xz")
python3 -c "print(f'\nsize: tessera bundle {$bundle} bytes, tar | xz -6 {$tarxz} bytes, ratio {$bundle / $tarxz:.3f}')"
