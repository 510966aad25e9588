"""report.html: one self-contained page (plotly's JavaScript inlined from
the plotly package): the Pareto plots with one mark per point (hover: the
point's parameters and figures, fast and validated), the validation's error
table, and a sortable table of the points. Clicking a mark selects and
shows its row (tr#point-N, class "selected")."""
from __future__ import annotations

import html
import json
from pathlib import Path

from . import pareto
from .physical import number

# (x, y, title) of each plot; the area plot's x is the best area figure.
PLOTS = [("area", "tops", "throughput against area"),
         ("tops", "energy_pj_per_mac", "energy per MAC against throughput")]
TABLE_COLUMNS = ["point", "status", "source", "cycles", "mac_utilization", "area_mm2",
                 "fmax_mhz", "tops", "tops_per_mm2", "energy_pj_per_mac", "tops_per_w",
                 "pareto", "pareto_energy"]

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>tcu explore: {title}</title>
<script>{plotly}</script>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
.plots {{ display: flex; flex-wrap: wrap; }} .plot {{ width: 640px; height: 440px; }}
table {{ border-collapse: collapse; font-size: 12px; }}
th, td {{ border: 1px solid #ccc; padding: 2px 6px; text-align: right; }}
th {{ cursor: pointer; background: #eee; position: sticky; top: 0; }}
tr.selected {{ background: #ffd54f; }} tr.front td:first-child {{ font-weight: bold; }}
#points {{ max-height: 600px; overflow: auto; }}
</style></head><body>
<h1>tcu explore</h1>
<p>{summary}</p>
<div class="plots">{plot_divs}</div>
<h2>Validation</h2>
{validation}
<h2>Points</h2>
<p>Click a column to sort; click a mark to show its point here.</p>
<div id="points"><table id="point-table"><thead><tr></tr></thead><tbody></tbody></table></div>
<script>
const ROWS = {rows};
const COLUMNS = {columns};
const PLOTS = {plots};
const head = document.querySelector("#point-table thead tr");
const body = document.querySelector("#point-table tbody");
function fill(rows) {{
  body.innerHTML = "";
  for (const r of rows) {{
    const tr = document.createElement("tr");
    tr.id = "point-" + r.point;
    if (r.pareto == 1 || r.pareto_energy == 1) tr.classList.add("front");
    for (const c of COLUMNS) {{
      const td = document.createElement("td");
      td.textContent = r[c] === undefined ? "" : r[c];
      tr.appendChild(td);
    }}
    tr.title = r.hover;
    body.appendChild(tr);
  }}
}}
let order = {{}};
COLUMNS.forEach((c) => {{
  const th = document.createElement("th");
  th.textContent = c;
  th.addEventListener("click", () => {{
    order[c] = -(order[c] || -1);
    const key = (r) => (r[c] === "" || r[c] === undefined ? null : r[c]);
    ROWS.sort((a, b) => {{
      const x = key(a), y = key(b);
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * order[c];
    }});
    fill(ROWS);
  }});
  head.appendChild(th);
}});
fill(ROWS);
function select(point) {{
  document.querySelectorAll("tr.selected").forEach((tr) => tr.classList.remove("selected"));
  const tr = document.getElementById("point-" + point);
  if (!tr) return;
  tr.classList.add("selected");
  tr.scrollIntoView({{block: "center"}});
}}
for (const p of PLOTS) {{
  const marks = ROWS.filter((r) => typeof r[p.x] === "number" && typeof r[p.y] === "number");
  const trace = {{
    type: "scatter", mode: "markers", name: "points",
    x: marks.map((r) => r[p.x]), y: marks.map((r) => r[p.y]),
    customdata: marks.map((r) => r.point), text: marks.map((r) => r.hover),
    hovertemplate: "%{{text}}<extra></extra>",
    marker: {{size: 8, color: marks.map((r) => (r[p.front] == 1 ? "#d62728" : "#1f77b4"))}},
  }};
  Plotly.newPlot(p.id, [trace], {{
    title: {{text: p.title}}, xaxis: {{title: {{text: p.x}}}}, yaxis: {{title: {{text: p.y}}}},
    hovermode: "closest", margin: {{t: 40}},
  }}, {{displaylogo: false}});
  document.getElementById(p.id).on("plotly_click", (e) => select(e.points[0].customdata));
}}
</script></body></html>
"""


def hover(row: dict, axes: list[str], validated: dict | None) -> str:
    parts = [f"point {row['point']}"] + [f"{a}={row.get(a)}" for a in axes]
    for key in ("cycles", "area_mm2", "fmax_mhz", "tops", "energy_pj_per_mac", "source"):
        if row.get(key) not in (None, ""):
            parts.append(f"{key}={row[key]}")
    if validated:
        parts += [f"full {k}={v}" for k, v in validated.items()]
    return "<br>".join(html.escape(str(p)) for p in parts)


def validation_table(validation: dict | None) -> str:
    if not validation:
        return "<p>Not validated (tcu explore --validate N).</p>"
    rows = validation["rows"]
    columns = validation["columns"]
    out = [f"<p>{html.escape(validation['summary'])}</p>", '<table id="validation"><tr>']
    out += [f"<th>{html.escape(c)}</th>" for c in columns] + ["</tr>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(r.get(c, '')))}</td>"
                                    for c in columns) + "</tr>")
    return "".join(out) + "</table>"


def cell(value):
    n = number(value)
    if n is not None and not isinstance(value, str):
        return value
    if n is not None and isinstance(value, str):
        return n
    return "" if value is None else str(value)


def write_report(rows: list[dict], meta: dict, out: Path,
                 validation: dict | None = None) -> Path:
    import plotly.offline
    axes = list(meta["sweep"]["axes"])
    area = pareto.area_key(rows)
    validated = (validation or {}).get("full", {})
    data = []
    for r in rows:
        d = {c: cell(r.get(c)) for c in TABLE_COLUMNS + axes + [area]}
        d["area"] = cell(r.get(area))
        d["hover"] = hover(r, axes, validated.get(int(r["point"])))
        data.append(d)
    columns = ["point"] + axes + [c for c in TABLE_COLUMNS if c != "point"]
    plots = [{"id": f"plot{i}", "x": x, "y": y, "title": title,
              "front": "pareto" if i == 0 else "pareto_energy"}
             for i, (x, y, title) in enumerate(PLOTS)]
    page = PAGE.format(
        title=html.escape(meta["workload_text"]), plotly=plotly.offline.get_plotlyjs(),
        summary=html.escape(f"{meta['workload_text']}; {len(rows)} point(s) of "
                            f"{meta['points']}; fidelity {meta.get('fidelity', 'full')}; area "
                            f"axis {area}; red marks: on that plot's Pareto front"),
        plot_divs="".join(f'<div class="plot" id="{p["id"]}"></div>' for p in plots),
        validation=validation_table(validation),
        rows=json.dumps(data).replace("</", "<\\/"), columns=json.dumps(columns),
        plots=json.dumps(plots))
    path = out / "report.html"
    path.write_text(page)
    return path
