#!/usr/bin/env bash
# tcu timing and tcu gemm --estimate / --compare a100 end to end, without a
# Verilated model of the a100 configuration: the a100 preset keeps the figures
# it claims (--check), the default configuration does not (the check can
# fail), the JSON has the documented shape, and bad input is refused.
# Usage: cli_timing.sh path/to/tcu
set -u
tcu=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

# expect CODE PATTERN -- command...
source "$(dirname "$0")/lib/expect.sh"

int4=mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32
f16=mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32

expect 0 "the a100 preset's claims: all kept at a100" -- "$tcu" timing --config a100 --check
# The planted failure: the default configuration is not calibrated (its f64
# chain of four 2-stage FMAs), so the same check must fail and say where.
expect 1 "f64 m8n8k4: latency 31, more than one cycle from NAK's DMMA 25 / 26" -- \
  "$tcu" timing --config default --check
expect 0 "missed at default" -- "$tcu" timing --config default
expect 2 "--config" -- "$tcu" timing --config nope

# The JSON: its shape, and the claims checked from its own figures.
"$tcu" timing --config a100 --json >"$dir/a100.json"
if ! python3 - "$dir/a100.json" <<'EOF'; then
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["config"] == "a100", doc["config"]
families = doc["families"]
assert len(families) == 6, len(families)
for f in families:
    assert set(f) == {"family", "ptx", "latency", "interval", "reference"}, f.keys()
    ref = f["reference"]
    if ref["latency_claimed"]:
        for nak in (ref["nak_alu_latency"], ref["nak_mma_latency"]):
            assert abs(f["latency"] - nak) <= 1, (f["family"], f["latency"], nak)
    if ref["interval_claimed"]:
        assert f["interval"] == ref["a100_interval"], (f["family"], f["interval"])
    assert ref["accel_sim"]["trace_latency"] and ref["accel_sim"]["ptx_interval"]
assert doc["a100_claims_missed"] == []
EOF
  echo "FAIL: tcu timing --config a100 --json"
  failures=$((failures + 1))
else
  echo "ok: tcu timing --config a100 --json"
fi

# The clock each configuration runs at (the data file's composition, each part
# in a register wrapper) and what sets it: the JSON's against the data file's
# [[datapath]] of the same name, read here from spec/phys_osu018.toml.
for config in default small a100; do
  "$tcu" timing --config "$config" --json >"$dir/clock.json"
  if ! python3 - "$dir/clock.json" "$(dirname "$0")/../spec/phys_osu018.toml" "$config" <<'EOF'; then
import json, sys, tomllib
doc = json.load(open(sys.argv[1]))
data = tomllib.load(open(sys.argv[2], "rb"))
(d,) = [d for d in data["datapath"] if d["name"] == sys.argv[3]]
clock = doc["clock"]
assert abs(clock["fmax_mhz"] - d["fmax_mhz"]) < 1e-9 * d["fmax_mhz"], (clock, d["fmax_mhz"])
assert clock["set_by"] == d["path_unit"], (clock["set_by"], d["path_unit"])
assert clock["in_place"] == d["path_in_place"], (clock["in_place"], d["path_in_place"])
engines = {e: d[f"{e}_fmax_mhz"] for e in ("int4", "e2m1", "f16", "f64") if f"{e}_fmax_mhz" in d}
assert {e: c["fmax_mhz"] for e, c in clock["engines"].items()} == engines, clock["engines"]
for e, c in clock["engines"].items():
    assert c["set_by"] == d[f"{e}_clock_set_by"], (e, c)
    assert c["fmax_mhz"] >= clock["fmax_mhz"], (e, c)  # no engine slower than the datapath
EOF
    echo "FAIL: tcu timing --config $config --json: its clock is not the data file's"
    failures=$((failures + 1))
  else
    echo "ok: tcu timing --config $config: the data file's clock"
  fi
done
expect 0 "composed from spec/phys_osu018.toml): datapath " -- "$tcu" timing --config default

# tcu gemm --estimate at a100, beyond the run limit, compared with the A100.
expect 0 "of the published peak" -- "$tcu" gemm --estimate --config a100 --compare a100 \
  --ptx "$int4" --m 4096 --n 4096 --k 4096
expect 2 "no published A100 tensor rate for f16" -- "$tcu" gemm --estimate --config a100 \
  --compare a100 --ptx "$f16" --m 16 --n 16 --k 16
expect 2 "--backpressure has no effect with --estimate" -- "$tcu" gemm --estimate \
  --backpressure 0.1 --ptx "$int4" --m 16 --n 8 --k 64
expect 2 "--estimate runs nothing" -- "$tcu" gemm --estimate --report "$dir/r.json" \
  --ptx "$int4" --m 16 --n 8 --k 64
expect 2 "instructions, more than the limit" -- "$tcu" gemm --engine golden \
  --ptx "$int4" --m 4096 --n 4096 --k 4096

if ((failures)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
