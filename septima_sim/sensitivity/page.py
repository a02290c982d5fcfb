"""``sensitivity.html``: one self-contained page (charts embedded, every value escaped by the template engine): the
values that matter most, then per metric a chart (Morris: ``mu_star`` against ``sigma``; Sobol: ``S1`` and ``ST``
bars, largest first) with assumed values marked, and its ten largest values."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl
from jinja2 import Environment

from septima_sim.content.assumed import is_assumed
from septima_sim.report.charts import figure, png
from septima_sim.sensitivity import findings
from septima_sim.sensitivity.metrics import HEADLINE, split_key, unit

if TYPE_CHECKING:
    from septima_sim.sensitivity.run import Plan

LABELLED = 6
"""Points named on a Morris chart (the largest ``mu_star``)."""
BARS = 12
"""Groups shown on a Sobol chart."""

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Septima: sensitivity to assumed values</title>
<style>body{font-family:sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse;font-size:.85rem;margin-bottom:1rem}td,th{border:1px solid #ccc;padding:.2rem .5rem}
td.n{text-align:right}.assumed{color:#b35900;font-weight:bold}section{margin-top:2rem}</style></head>
<body><h1>Sensitivity to the assumed values</h1>
<p>{{ method }} over {{ values }} value(s) in {{ groups }} group(s) of config <code>{{ source }}</code>:
{{ samples }} samples x {{ cells }} cell(s) x {{ games }} games, every sample on the same seeds (common random
numbers), each a run directory under <code>runs/</code> whose games can be replayed.</p>
<p>How much a value moves a metric across its range: {{ size_text }} The <b>noise floor</b> is what a value would
show if it only re-dealt the games: below it, a value cannot be told from luck; a value the game never reads shows
exactly 0. <span class="assumed">Assumed</span> values are stand-ins to replace with printed values.</p>
<h2>Values that matter most</h2>
<p>The values that move a metric beyond the noise floor, most first (by size over noise); replace the
<span class="assumed">assumed</span> ones with printed values first.</p>
{% if most %}<table><tr><th>value (group)</th><th>provenance</th><th>drives (largest first)</th></tr>
{% for r in most %}<tr><td>{{ r.group }}</td><td{% if r.assumed %} class="assumed"{% endif %}>{{ r.provenance }}</td>
<td>{{ r.drives }}</td></tr>{% endfor %}</table>
{% else %}<p>No value moves any metric beyond the study's noise floor.</p>{% endif %}
{% for m in metrics %}<section><h2>{{ m.title }}</h2>
<p>Noise floor {{ m.noise }}; the metric's spread over the samples {{ m.spread }}.</p>
<img alt="{{ m.title }}" src="{{ m.chart }}">
<table><tr>{% for h in m.headers %}<th>{{ h }}</th>{% endfor %}</tr>
{% for row in m.rows %}<tr>{% for v in row %}<td{% if loop.index > 2 %} class="n"{% endif %}>{{ v }}</td>{% endfor %}
</tr>{% endfor %}</table></section>{% endfor %}
{% if components %}<section><h2>Component effects</h2>
<p>Each component's association effect (win-rate points when present, Wisdom for a building or an Omen half), with
the three values that move it most (name one with <code>--metrics component:KIND:ID</code> for its chart).</p>
<table><tr><th>metric</th><th>players</th><th>noise floor</th><th>moved most by</th></tr>
{% for c in components %}<tr><td>{{ c.metric }}</td><td class="n">{{ c.players }}</td><td class="n">{{ c.noise }}</td>
<td>{{ c.values }}</td></tr>{% endfor %}</table></section>{% endif %}
{% if skipped %}<h2>Not analysed</h2><p>Metrics some sample did not measure (a component never seen, no hunter roll):
{{ skipped | join(", ") }}.</p>{% endif %}
<h2>Assumed values left out</h2><ul>{% for f in fixed %}<li>{{ f }}</li>{% endfor %}
<li>Positions (map area coordinates, hunter start spaces) are never in <code>--params assumed</code>: moved alone,
one lands on another. Name one with a range in <code>--params</code> to study it.</li></ul>
</body></html>
"""

SIZE_TEXT = {
    "morris": "mu* (the mean absolute elementary effect, about the change across the whole range), its 95% "
    "bootstrap half-width, and sigma (large: the effect changes with the other values: interactions).",
    "sobol": "S1 (the share of the metric's variance the value explains alone) and ST (with its interactions).",
}


def _uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def _morris_chart(rows: pl.DataFrame, title: str, noise: float) -> bytes:
    with figure(6.5, 3.6) as fig:
        ax = fig.subplots()
        mine = np.array([is_assumed(str(p)) for p in rows["provenance"]], dtype=bool)
        x, y = rows["mu_star"].to_numpy(), rows["sigma"].to_numpy()
        ax.scatter(x[mine], y[mine], color="C1", label="assumed", s=18)
        ax.scatter(x[~mine], y[~mine], facecolors="none", edgecolors="C0", label="from a source", s=18)
        ax.axvline(noise, color="grey", linestyle="--", linewidth=0.8, label="noise floor")
        for group, mu, sigma in (
            rows.sort("mu_star", descending=True).head(LABELLED).select("group", "mu_star", "sigma").iter_rows()
        ):
            ax.annotate(str(group), (mu, sigma), fontsize=6, xytext=(3, 3), textcoords="offset points")
        ax.set(title=title, xlabel="mu* (change across the range)", ylabel="sigma")
        ax.legend(fontsize=7, loc="upper left")
        return png(fig)


def _sobol_chart(rows: pl.DataFrame, title: str, noise: float) -> bytes:
    top = rows.sort("ST", descending=True).head(BARS).reverse()
    with figure(6.5, 1.2 + 0.28 * max(top.height, 1)) as fig:
        ax = fig.subplots()
        y = np.arange(top.height)
        names = [f"{g} *" if is_assumed(str(p)) else str(g) for g, p in top.select("group", "provenance").iter_rows()]
        ax.barh(y - 0.2, top["S1"].to_numpy(), height=0.4, color="C0", label="S1")
        ax.barh(y + 0.2, top["ST"].to_numpy(), height=0.4, color="C1", label="ST")
        ax.axvline(noise, color="grey", linestyle="--", linewidth=0.8, label="noise floor (ST)")
        ax.set_yticks(y, names, fontsize=6)
        ax.set(title=f"{title} (* assumed)", xlabel="share of variance")
        ax.legend(fontsize=7, loc="lower right")
        return png(fig)


def _metric(table: pl.DataFrame, sized: pl.DataFrame, key: tuple[str, int], method: str) -> dict[str, Any]:
    name, players = key
    rows = table.filter((pl.col("metric") == name), (pl.col("players") == players)).unique(
        "group", keep="first", maintain_order=True
    )
    title = f"{name} at {players} player(s) ({unit(name)})"
    noise = float(rows["noise_floor"][0])
    stats = ["mu_star", "mu_star_conf", "sigma"] if method == "morris" else ["S1", "S1_conf", "ST", "ST_conf"]
    if method == "morris":
        chart = _morris_chart(rows.select("group", "mu_star", "sigma", "provenance"), title, noise)
    else:
        chart = _sobol_chart(rows.select("group", "S1", "ST", "provenance"), title, noise)
    top = findings.top_values(sized, name, players)
    shown = rows.join(top.select("group", "size"), on="group").sort("size", descending=True)
    body = [
        [str(r["group"]), str(r["provenance"]), f"{r['size']:.2f}", *(f"{r[c]:.3g}" for c in stats), str(r["rank"])]
        for r in shown.iter_rows(named=True)
    ]
    return {
        "title": title,
        "chart": _uri(chart),
        "noise": f"{noise:.3g}" + ("" if method == "morris" else " (ST)"),
        "spread": f"{float(rows['metric_sd'][0]):.3g} {unit(name)}",
        "headers": ["value (group)", "provenance", f"moves it ({unit(name)})", *stats, "rank"],
        "rows": body,
    }


def _component_rows(sized: pl.DataFrame, keys: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """One row per component metric: its noise floor and the values that move it most."""
    out = []
    for name, players in keys:
        top = findings.top_values(sized, name, players, findings.TOP)
        values = ", ".join(f"{g} ({s:.2f})" for g, s in top.select("group", "size").iter_rows())
        out.append({"metric": name, "players": players, "noise": f"{float(top['noise'][0]):.2f}", "values": values})
    return out


def render(plan: Plan, table: pl.DataFrame, skipped: list[str]) -> str:
    """The page of a study: a chart per headline metric and per component metric named in ``--metrics``; the other
    component metrics in one table."""
    sized = findings.sizes(table)
    keys = list(dict.fromkeys((m, int(n)) for m, n in table.select("metric", "players").iter_rows()))
    charted = [k for k in keys if k[0] in HEADLINE or k[0] in plan.metrics]
    most = [
        {
            "group": r["group"],
            "provenance": r["provenance"],
            "assumed": is_assumed(str(r["provenance"])),
            "drives": findings.drives_text(r["metrics"]),
        }
        for r in findings.matter_most(sized).iter_rows(named=True)
    ]
    context = {
        "method": "Morris screening" if plan.method == "morris" else "Sobol indices",
        "values": len(plan.params),
        "groups": plan.groups,
        "source": plan.source,
        "samples": len(plan.samples),
        "cells": plan.cells,
        "games": plan.games,
        "size_text": SIZE_TEXT[plan.method],
        "most": most,
        "metrics": [_metric(table, sized, k, plan.method) for k in charted],
        "components": _component_rows(sized, [k for k in keys if k not in charted]),
        "skipped": [f"{n} at {p}p" for n, p in map(split_key, skipped)],
        "fixed": [f"{v.path} = {v.value}: {v.fixed}" for v in plan.fixed],
    }
    return Environment(autoescape=True).from_string(_PAGE).render(**context)
