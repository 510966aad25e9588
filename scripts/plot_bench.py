#!/usr/bin/env python3
"""Draws the benchmark results of scripts/bench.sh as an SVG bar chart:
instructions/s per instruction family for each engine (log scale)."""
import math
import re
import sys
from pathlib import Path

FAMILIES = [("m16n8k64 int4", r"m16n8k64\.row\.col\.(satfinite\.)?s32"),
            ("m8n8k32 int4", r"m8n8k32"),
            ("sparse int4", r"mma\.sp"),
            ("m8n8k4 f16", r"m8n8k4\.\w+\.\w+\.f(16|32)\.f16"),
            ("m8n8k4 f64", r"f64\.f64"),
            ("e2m1", r"e2m1")]
LINE = re.compile(r"^\s+(pass|FAIL) \d+/\d+\s+([\d.]+) instr/s(?:\s+([\d.]+) cycles/instr)?\s+(\S+)")


def read(path):
    rates = {}
    for line in Path(path).read_text().splitlines():
        m = LINE.match(line)
        if not m:
            continue
        for name, pattern in FAMILIES:
            if re.search(pattern, m.group(4)):
                rates.setdefault(name, []).append(float(m.group(2)))
                break
    return {k: sum(v) / len(v) for k, v in rates.items()}


def main(directory, svg_path):
    engines = [(p.stem, read(p)) for p in sorted(Path(directory).glob("*.txt"))]
    width, height, left, bottom = 760, 360, 70, 60
    top = max((v for _, r in engines for v in r.values()), default=1)
    scale_max = math.ceil(math.log10(max(top, 10)))
    group = (width - left - 20) / len(FAMILIES)
    bar = group / (len(engines) + 1)
    colors = ["#4472c4", "#ed7d31", "#70ad47", "#a5a5a5"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           'font-family="sans-serif" font-size="11">',
           f'<text x="{width/2}" y="16" text-anchor="middle" font-size="13">'
           'tcu run throughput (instructions/s, log scale)</text>']
    plot_h = height - bottom - 30
    for decade in range(0, scale_max + 1):
        y = height - bottom - plot_h * decade / scale_max
        out.append(f'<line x1="{left}" x2="{width-20}" y1="{y}" y2="{y}" stroke="#ddd"/>')
        out.append(f'<text x="{left-6}" y="{y+4}" text-anchor="end">1e{decade}</text>')
    for i, (name, _) in enumerate(FAMILIES):
        x0 = left + i * group
        out.append(f'<text x="{x0 + group/2}" y="{height-bottom+16}" text-anchor="middle">{name}</text>')
        for j, (engine, rates) in enumerate(engines):
            v = rates.get(name)
            if not v:
                continue
            h = plot_h * math.log10(max(v, 1)) / scale_max
            x = x0 + bar * (j + 0.5)
            out.append(f'<rect x="{x}" y="{height-bottom-h}" width="{bar*0.9}" height="{h}" '
                       f'fill="{colors[j % len(colors)]}"><title>{engine}: {v:.0f}/s</title></rect>')
    for j, (engine, _) in enumerate(engines):
        out.append(f'<rect x="{left + 150*j}" y="{height-22}" width="10" height="10" fill="{colors[j % len(colors)]}"/>')
        out.append(f'<text x="{left + 150*j + 14}" y="{height-13}">{engine}</text>')
    out.append("</svg>")
    Path(svg_path).write_text("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
