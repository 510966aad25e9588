#!/usr/bin/env bash
# tcu replay --coverage and tcu gemm --coverage write the report tcu run
# --coverage writes (functional.json, html/index.html, the summary), with
# the hits the input implies: the f64 vector file's bins recounted from the
# file alone (expected_f64_bins.py), a GEMM's from its shape (its
# instructions: tiles x k-steps). The recount bites: the same report with
# one hit added fails it. Bad --coverage arguments are refused before
# anything runs (exit 2, a message naming DIR).
#   tests/coverage/replay_gemm_coverage.sh TCU PYTHON WORKDIR ENGINE(golden|rtl)
set -uo pipefail
tcu=$1
python=$2
work=$3
engine=$4
here=$(cd "$(dirname "$0")" && pwd)
vectors=$here/../data/silicon-h200-f64-rounding-public.jsonl.gz
rtl=$([ "$engine" = rtl ] && echo --rtl || true)
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

# ---- replay: the file's bins, recounted
"$tcu" replay --engine "$engine" "$vectors" --coverage "$work/replay" >"$work/replay.log" 2>&1 ||
  { cat "$work/replay.log"; fail "tcu replay --coverage"; }
grep -q "functional operand" "$work/replay.log" || fail "no terminal summary from replay"
[ -s "$work/replay/html/index.html" ] || fail "replay wrote no html/index.html"
"$python" "$here/expected_f64_bins.py" "$vectors" "$work/replay/functional.json" $rtl ||
  fail "replay's bins differ from the file's"
# The planted twin: one hit more on a bin the file hits.
mkdir -p "$work/planted"
"$python" - "$work/replay/functional.json" "$work/planted/functional.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
next(b for b in doc["bins"] if b["name"] == "a.normal" and b["hits"] > 0)["hits"] += 1
json.dump(doc, open(sys.argv[2], "w"))
PY
if "$python" "$here/expected_f64_bins.py" "$vectors" "$work/planted/functional.json" $rtl \
  >"$work/planted.log"; then
  fail "the recount accepted a report with a hit too many"
fi

# ---- gemm: 16x16x8 in m8n8k4 .f64 is 2x2 tiles x 2 k-steps = 8 instructions
ptx=mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
"$tcu" gemm --engine "$engine" --ptx $ptx --m 16 --n 16 --k 8 --coverage "$work/gemm" \
  >"$work/gemm.log" 2>&1 || { cat "$work/gemm.log"; fail "tcu gemm --coverage"; }
grep -q "functional operand" "$work/gemm.log" || fail "no terminal summary from gemm"
[ -s "$work/gemm/html/index.html" ] || fail "gemm wrote no html/index.html"
"$python" - "$work/gemm/functional.json" "$ptx" "$engine" <<'PY' || fail "gemm's bins"
import json, sys
path, ptx, engine = sys.argv[1:]
have = {(b["group"], b["name"]): b["hits"] for b in json.load(open(path))["bins"]}
instructions = (16 // 8) * (16 // 8) * (8 // 4)
want = {("stream", "order.f64->f64"): instructions - 1,
        # every instruction's C is normal (the problem's C, then D's sums)
        (ptx, "c.normal"): instructions}
if engine == "rtl":
    want[("regfile", "f64.collect.bandwidth")] = instructions
    want[("regfile", "f64.write_back.bandwidth")] = instructions
bad = [f"{k}: {have.get(k)}, expected {v}" for k, v in want.items() if have.get(k) != v]
for line in bad:
    print("FAIL:", line)
sys.exit(1 if bad else 0)
PY

# ---- bad arguments
touch "$work/a-file"
"$tcu" replay --engine "$engine" "$vectors" --coverage "$work/a-file" >"$work/bad1.log" 2>&1
[ $? -eq 2 ] && grep -q "coverage $work/a-file: cannot create the directory" "$work/bad1.log" ||
  { cat "$work/bad1.log"; fail "replay --coverage naming a file"; }
"$tcu" gemm --engine "$engine" --ptx $ptx --m 16 --n 16 --k 8 --coverage "$work/a-file/sub" \
  >"$work/bad2.log" 2>&1
[ $? -eq 2 ] && grep -q "cannot create the directory" "$work/bad2.log" ||
  { cat "$work/bad2.log"; fail "gemm --coverage under a file"; }
"$tcu" gemm --ptx $ptx --m 16 --n 16 --k 8 --estimate --coverage "$work/x" >"$work/bad3.log" 2>&1
[ $? -eq 2 ] && grep -q "estimate runs nothing" "$work/bad3.log" ||
  { cat "$work/bad3.log"; fail "gemm --estimate --coverage"; }
"$tcu" replay "$vectors" --coverage "$work/y" --coverage-waivers "$work/none.txt" \
  >"$work/bad4.log" 2>&1
[ $? -eq 2 ] && grep -q "none.txt: no such file" "$work/bad4.log" ||
  { cat "$work/bad4.log"; fail "replay --coverage-waivers missing"; }
echo "ok: replay and gemm --coverage report what their input implies ($engine engine)"
