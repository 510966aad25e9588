#!/usr/bin/env bash
# The RTL's activity counters as `tcu gemm` and `tcu run` report them (the
# text table and the --report JSON), at one configuration: issued MACs equal
# the instructions' m*n*k (sparse: the 32 stored products per row), every
# engine's busy + idle + gated cycles equal the cycles, engines that never
# ran count every cycle gated, a back-pressured run has stalled cycles, and
# `run --jobs` adds its jobs' counters up; the energy estimate in pJ (text
# and the report's "energy") adds up over the engines, the router and the
# glue, and charges the engines that never ran leakage only.
# Usage: cli_activity.sh path/to/tcu CONFIG
set -u
tcu=$1
config=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  head -40 "$dir/out"
  failures=$((failures + 1))
}
# check NAME ENGINE MACS [python condition on a (activity), e (the engine)] [DENSE MACS]
# The report's "macs" block (the model's issued and dense-equivalent counts)
# must equal the counters' MACs and the test's own dense count (DENSE MACS,
# default MACS; sparse: twice the issued; f16 m8n8k4: the four quad pairs).
check() {
  local name=$1 engine=$2 macs=$3 extra=${4:-True} dense=${5:-$3}
  python3 - "$dir/$name.json" "$engine" "$macs" "$extra" "$dense" <<'PY' || fail "$name: the report's activity"
import json, sys
report = json.load(open(sys.argv[1]))
engine, macs, extra, dense = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
assert report["macs"]["issued"] == macs and report["macs"]["dense"] == dense, (report["macs"], macs, dense)
assert sum(v["issued_macs"] for v in report["variants"]) == macs, report["variants"]
assert sum(v["dense_macs"] for v in report["variants"]) == dense, report["variants"]
a = report["activity"]
for name, x in a["engines"].items():
    assert x["busy"] + x["idle"] + x["gated"] == a["cycles"], (name, x, a["cycles"])
    if name != engine:
        assert x["gated"] == a["cycles"] and x["macs"] == 0 and x["busy"] == 0, (name, x)
e = a["engines"][engine]
assert e["macs"] == macs, (e["macs"], macs)
assert e["busy"] > 0
util = e["macs"] / (e["peak_macs_per_cycle"] * a["cycles"])
assert abs(e["mac_utilization"] - util) < 1e-12, (e["mac_utilization"], util)
# The energy estimate (model/src/energy.cpp): every engine's share, the
# total, pJ per MAC, the library, and the busy engine charged more than the
# gated ones' leakage.
en = report["energy"]
assert en["library"] == "OSU 0.18 µm, typical corner", en["library"]
parts = en["per_engine"]
assert set(parts) == set(a["engines"]), parts.keys()
r, g = en["router"], en["glue"]
assert abs(sum(p["pj"] for p in parts.values()) + r["pj"] + g["pj"] - en["pj"]) <= 1e-9 * en["pj"], en
# The router: its idle figure every cycle, its dynamic figure a word (the
# instructions' register words, as the report's activity counts them); the
# skid, control and counters: their figure every cycle.
assert r["measured"] and r["words"] == a["router_words"] > 0, (r, a)
router = a["cycles"] * r["idle_pj_per_cycle"] + r["words"] * r["dynamic_pj_per_word"]
assert abs(r["pj"] - router) <= 1e-9 * router, (r, router)
assert g["parts"] == 3 and abs(g["pj"] - a["cycles"] * g["pj_per_cycle"]) <= 1e-9 * g["pj"], g
total_macs = sum(x["macs"] for x in a["engines"].values())
assert total_macs > 0 and abs(en["pj_per_issued_mac"] - en["pj"] / total_macs) <= 1e-9 * en["pj_per_issued_mac"], en
p = parts[engine]
assert p["macs"] == macs and p["units"] > 0 and p["pj"] > 0, p
assert p["pj"] >= macs * p["dynamic_pj_per_issued_mac"] > 0, p
for name, q in parts.items():
    if name != engine:
        leak = q["units"] * a["cycles"] * q["leakage_pj_per_unit_cycle"]
        assert abs(q["pj"] - leak) <= 1e-9 * leak and q["pj"] < p["pj"], (name, q)
assert eval(extra), extra
PY
  grep -qE "^ *activity \(RTL counters, [0-9]+ cycles\):" "$dir/out" || fail "$name: no activity table"
  grep -qE "^ *energy [0-9.e+]+ pJ, [0-9.e+]+ pJ/issued MAC \(estimate, OSU 0.18 µm, typical corner" "$dir/out" ||
    fail "$name: no energy line"
}
runs() {  # runs PTX: whether this configuration has the variant's engine
  "$tcu" run --engine rtl --config "$config" --ptx "$1" --count 1 --jobs 1 >/dev/null 2>&1
}

k64=mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32
sparse=mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32
k32=mma.sync.aligned.m8n8k32.row.col.s32.u4.s4.s32
e2m1=mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0
f16=mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32
f64=mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64

if runs "$k64"; then
  "$tcu" gemm --engine rtl --config "$config" --ptx "$k64" --m 32 --n 16 --k 128 --warps 2 \
    --report "$dir/gemm_k64.json" >"$dir/out" 2>&1 || fail "gemm int4"
  check gemm_k64 int4 $((32 * 16 * 128))
fi
if runs "$sparse"; then
  "$tcu" gemm --engine rtl --config "$config" --ptx "$sparse" --m 32 --n 16 --k 128 \
    --report "$dir/gemm_sparse.json" >"$dir/out" 2>&1 || fail "gemm sparse"
  check gemm_sparse int4 $((32 * 16 * 128 / 2)) True $((32 * 16 * 128))
fi
if runs "$f64"; then
  "$tcu" run --engine rtl --config "$config" --ptx "$f64" --count 7 --jobs 1 \
    --report "$dir/run_f64.json" >"$dir/out" 2>&1 || fail "run f64"
  check run_f64 f64 $((7 * 8 * 8 * 4)) "e['stalled'] == 0"
fi
if runs "$k32"; then
  # The pipelines hold only while the output skid register is full and the
  # next D waits: out_ready must stay low for about an occupancy (8 cycles
  # at small), hence the strong back-pressure.
  "$tcu" run --engine rtl --config "$config" --ptx "$k32" --count 40 --backpressure 0.8 --jobs 1 \
    --report "$dir/run_bp.json" >"$dir/out" 2>&1 || fail "run back-pressure"
  check run_bp int4 $((40 * 8 * 8 * 32)) "e['stalled'] > 0"
fi
if runs "$e2m1"; then
  "$tcu" run --engine rtl --config "$config" --ptx "$e2m1" --count 9 --jobs 2 \
    --report "$dir/run_jobs.json" >"$dir/out" 2>&1 || fail "run --jobs 2"
  check run_jobs e2m1 $((9 * 16 * 8 * 64))
fi
if runs "$f16"; then
  "$tcu" run --engine rtl --config "$config" --ptx "$f16" --count 3 --jobs 1 \
    --report "$dir/run_f16.json" >"$dir/out" 2>&1 || fail "run f16"
  check run_f16 f16 $((3 * 4 * 8 * 8 * 4))
fi
[[ $failures -eq 0 ]] && echo "ok: activity counters of configuration $config"
exit $((failures > 0))
