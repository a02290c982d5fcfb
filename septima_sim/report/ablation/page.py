"""``ablation.html``: the causal effects as one self-contained page (chart embedded, every value escaped)."""

from __future__ import annotations

import base64
from pathlib import Path

import polars as pl
from jinja2 import Environment

from septima_sim.report import charts
from septima_sim.report.ablation import interactions, table

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Septima: causal component effects</title>
<style>body{font-family:sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse;font-size:.9rem}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}
td:first-child,td:nth-child(2),td:last-child{text-align:left}.flag{color:#b30000;font-weight:bold}</style></head>
<body><h1>Causal component effects (ablation)</h1>
<p>Each component was removed from the game (an animal tile replaced by its colour's other tile) and the same games
were played again on the same seeds. Effect = unchanged game minus game without it, for the seat that holds it in
the unchanged game (buildings and Omens: every seat's Wisdom). Arm <code>forced:N</code>: the witch, spell or goal
dealt to seat N on purpose; effect = that seat's result with it minus the same seat's in the same unchanged game.
Arm <code>swap:A-B</code>: the animal tiles of colours A and B exchanged; <code>seat:A</code> = seat A with B's tiles
minus seat A with its own, <code>tiles:A:...</code> = A's tiles at seat B minus the same tiles at seat A.
Flagged: Holm-adjusted p &lt; 0.05 and an effect of at
least {{ tolerance }} win-rate points (shared components: 1 Wisdom). Every number comes from paired games, never from
who happened to hold what.</p>
{% if lines %}<h2>Largest effects</h2><ul>{% for line in lines %}<li>{{ line }}</li>{% endfor %}</ul>{% endif %}
{% if chart %}<img alt="effects with 95% intervals" src="{{ chart }}">{% endif %}
<h2>Every component and cell</h2>
<table><tr>{% for h in headers %}<th>{{ h }}</th>{% endfor %}</tr>
{% for row in rows %}<tr>{% for v in row %}<td{% if v == "flagged" %} class="flag"{% endif %}>{{ v }}</td>{% endfor %}
</tr>{% endfor %}</table>
{% if pair_rows %}<h2>Interactions (ablate --pairs)</h2>
<p>Interaction = effect of removing A + effect of removing B − effect of removing both, on the same seeds. Positive:
they stack (together they give more than the sum of each alone); negative: they overlap.</p>
<table><tr>{% for h in pair_headers %}<th>{{ h }}</th>{% endfor %}</tr>
{% for row in pair_rows %}<tr>{% for v in row %}<td>{{ v }}</td>{% endfor %}</tr>{% endfor %}</table>{% endif %}
{% if skipped %}<h2>Not measured</h2><ul>{% for s in skipped %}<li>{{ s }}</li>{% endfor %}</ul>{% endif %}
</body></html>
"""

HEADERS = [
    "kind",
    "component",
    "arm",
    "cell",
    "pairs",
    "win effect (points) [95% CI]",
    "Wisdom effect",
    "p (Holm)",
    "flagged",
    "stopped",
    "note",
]


def _interval(v: float | None, lo: float | None, hi: float | None) -> str:
    if v is None:
        return "n/a"
    return f"{v:+.1f} [{lo:.1f}, {hi:.1f}]" if lo is not None and hi is not None else f"{v:+.1f}"


def lines(frame: pl.DataFrame, top: int = 5) -> list[str]:
    """Plain-language lines for the largest holder effects (then the shared components' largest Wisdom effects)."""
    out = []
    for r in frame.head(top).iter_rows(named=True):
        arm = r.get("arm") or "removed"
        if r["effect_win_points"] is not None:
            seat = "for the seat holding it" if arm == "removed" else f"for seat {arm.split(':')[1]} forced to hold it"
            seat = swap_phrase(r["component"], arm) if arm.startswith("swap:") else seat
            what = f"{r['effect_win_points']:+.1f} win-rate points [{r['ci_low']:.1f}, {r['ci_high']:.1f}] {seat}"
        else:
            what = f"{r['effect_wisdom']:+.1f} Wisdom [{r['ci_low']:.1f}, {r['ci_high']:.1f}] for every seat"
        extra = f"; {r['note']}" if r.get("note") else ""
        flag = ", flagged" if r["flagged"] else ""
        out.append(
            f"{r['kind']} {r['component']}: {what} at {r['players']} players ({r['cell']}, "
            f"{r['games']:,} paired games{flag}){extra}"
        )
    return out


def rows(frame: pl.DataFrame) -> list[list[str]]:
    """The display rows of the full table."""
    out = []
    for r in frame.iter_rows(named=True):
        shared = r["effect_win_points"] is None
        out.append(
            [
                r["kind"],
                r["component"],
                r.get("arm") or "removed",
                r["cell"],
                f"{r['games']:,}",
                "n/a (shared)" if shared else _interval(r["effect_win_points"], r["ci_low"], r["ci_high"]),
                _interval(r["effect_wisdom"], r["ci_low"], r["ci_high"]) if shared else f"{r['effect_wisdom']:+.1f}",
                "<0.001" if r["p_adj"] < 0.001 else f"{r['p_adj']:.3f}",
                "flagged" if r["flagged"] else "",
                r.get("status") or "",
                r.get("note") or "",
            ]
        )
    return out


def chart(frame: pl.DataFrame, top: int = 25) -> str | None:
    """The holder effects with intervals as an embedded PNG (largest first), or None when there is none."""
    held = frame.filter(pl.col("effect_win_points").is_not_null()).head(top)
    if held.is_empty():
        return None
    labels = [
        f"{k}: {c}{'' if a == 'removed' else f' {a}'} ({cell})"
        for k, c, a, cell in held.select("kind", "component", "arm", "cell").iter_rows()
    ]
    data = charts.forest(
        labels,
        held["effect_win_points"].to_numpy(),
        held["ci_low"].to_numpy(),
        held["ci_high"].to_numpy(),
        held["flagged"].to_numpy().astype(bool),
        "Win rate of the seat holding it: with minus without",
        "win-rate points",
    )
    return "data:image/png;base64," + base64.b64encode(data).decode()


def write(folder: Path, tolerance: float) -> Path:
    """Write ``folder/ablation.html`` from the folder's CSV files."""
    frame = table.read(folder)
    assert frame is not None
    status = table.with_arm(pl.read_csv(folder / table.STATUS, schema_overrides={"component": pl.String}))
    measured = set(frame.select("kind", "component", "arm").iter_rows())
    skipped = [
        f"{k} {c} ({a}): {s}"
        for k, c, a, s in status.select("kind", "component", "arm", "status").iter_rows()
        if (k, c, a) not in measured
    ]
    pairs = interactions.read(folder)
    html = (
        Environment(autoescape=True)
        .from_string(_PAGE)
        .render(
            tolerance=f"{tolerance:g}",
            lines=lines(frame),
            chart=chart(frame),
            headers=HEADERS,
            rows=rows(frame),
            skipped=skipped,
            pair_headers=interactions.HEADERS,
            pair_rows=interactions.display(pairs) if pairs is not None else [],
        )
    )
    path = folder / "ablation.html"
    path.write_text(html, encoding="utf-8")
    return path


def swap_phrase(component: str, arm: str) -> str:
    """Whom a swap row measures, for a sentence: ``for the orange seat with the gray tiles instead of its own``."""
    first, second = arm.split(":", 1)[1].split("-", 1)
    what, colour, *ids = component.split(":")
    other = second if colour == first else first
    if what == "seat":
        return f"for the {colour} seat with the {other} tiles instead of its own"
    return f"for the {colour} tiles ({ids[0] if ids else colour}) at the {other} seat instead of their own"
