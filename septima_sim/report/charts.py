"""Charts as PNG bytes: matplotlib's object API (Figure on Agg, no pyplot), a colour-blind-safe style and no
metadata, so the same tables always give the same bytes."""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib.style
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from septima_sim.engine.config import COLOURS

STYLE = "tableau-colorblind10"
DIVERGING = "PuOr_r"
"""Purple-orange diverging colour map: readable with the common colour-vision deficiencies."""


@contextmanager
def figure(width: float = 7.5, height: float = 4.0) -> Iterator[Figure]:
    """A constrained-layout Figure under the report style."""
    with matplotlib.style.context(STYLE):
        yield Figure(figsize=(width, height), layout="constrained")


def fit_titles(fig: Figure) -> None:
    """Wrap every title (axes titles and the figure's) that would run past the figure's edges, at word boundaries,
    into as many lines as it needs; constrained layout then makes room for them. A title is centred: it fits when its
    half-width fits on either side of its centre."""
    for _ in range(3):  # wrapping moves the axes (more lines above them): measure again
        fig.draw_without_rendering()
        wrapped = False
        titles = [ax.title for ax in fig.axes] + list(fig.texts)  # fig.texts holds the suptitle
        for t in titles:
            box = t.get_window_extent()
            centre = (box.x0 + box.x1) / 2
            room = 2 * min(centre - fig.bbox.x0, fig.bbox.x1 - centre) - 8  # a few pixels of margin
            if not t.get_text() or box.width <= room:
                continue
            text = " ".join(t.get_text().split())
            t.set_text(textwrap.fill(text, max(10, int(len(text) * room / box.width))))
            wrapped = True
        if not wrapped:
            return


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes without a Software/version stamp (deterministic), its titles wrapped to fit."""
    fit_titles(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    return buf.getvalue()


def seat_heatmap(seats: pl.DataFrame) -> bytes:
    """Cell x seat heat map of win rate minus fair share (points), annotated with the win rate."""
    cells = seats["cell_id"].unique(maintain_order=True).to_list()
    width = max(seats["seat"].to_list(), default=-1) + 1
    grid = np.full((len(cells), width), np.nan)
    rate = np.full_like(grid, np.nan)
    for cell, seat, delta, win in seats.select("cell_id", "seat", "delta", "win_rate").iter_rows():
        grid[cells.index(cell), seat] = delta * 100
        rate[cells.index(cell), seat] = win * 100
    limit = max(2.0, float(np.nanmax(np.abs(grid))))
    with figure(7.5, 1.2 + 0.38 * len(cells)) as fig:
        ax = fig.subplots()
        im = ax.imshow(grid, cmap=DIVERGING, vmin=-limit, vmax=limit, aspect="auto")
        for (i, j), v in np.ndenumerate(rate):
            if not np.isnan(v):
                dark = abs(grid[i, j]) > 0.6 * limit  # the ends of the diverging map are dark: white text there
                ax.text(j, i, f"{v:.1f}%", ha="center", va="center", fontsize=8, color="white" if dark else "black")
        ax.set_xticks(range(width), [seat_name(s) for s in range(width)], fontsize=8)
        ax.set_yticks(range(len(cells)), cells, fontsize=8)
        ax.set_title("Win rate by seat (colour: points above or below fair share)")
        fig.colorbar(im, ax=ax, label="win rate minus fair share (points)")
        return png(fig)


def seat_name(seat: int) -> str:
    """A seat's colour (RULINGS S1) with its number, for legends."""
    return f"{COLOURS[seat].title()} (seat {seat})" if 0 <= seat < len(COLOURS) else f"seat {seat}"


def seat_bars(seats: pl.DataFrame, position: str, label: str) -> bytes:
    """Win rate per seat with Wilson 95% intervals and the fair-share line, one panel per player count."""
    counts = sorted(seats["players"].unique().to_list())
    with figure(7.5, 3.2) as fig:
        axes = fig.subplots(1, len(counts), squeeze=False)[0]
        for ax, n in zip(axes, counts, strict=True):
            sub = seats.filter(pl.col("players") == n).sort(position)
            x = sub[position].to_numpy()
            y = sub["win_rate"].to_numpy() * 100
            err = np.vstack([y - sub["lo"].to_numpy() * 100, sub["hi"].to_numpy() * 100 - y])
            ax.bar(x, y, yerr=err, capsize=4, color="C0")
            ax.axhline(100 / n, color="C1", linestyle="--", label="fair share")
            names = [seat_name(int(v)).split(" (")[0] if position == "seat" else f"{label} {v}" for v in x]
            ax.set_xticks(x, names, fontsize=8)
            ax.set_title(f"{n} players")
            ax.set_ylim(0, max(100 / n * 1.6, float(np.max(y + err[1])) * 1.1))
        axes[0].set_ylabel("win rate (%)")
        axes[0].legend(loc="lower left", fontsize=8)
        return png(fig)


def distributions(wisdom: pl.DataFrame, margin: pl.DataFrame) -> bytes:
    """Final Wisdom per player and winning margin, one line per player count, from (players, value, count)
    tables."""
    with figure(7.5, 3.2) as fig:
        left, right = fig.subplots(1, 2)
        for i, n in enumerate(sorted(wisdom["players"].unique().to_list())):
            for ax, table in ((left, wisdom), (right, margin)):
                sub = table.filter(pl.col("players") == n).drop_nulls("value")
                values = sub["value"].to_numpy().astype(int)
                lo, hi = int(values.min()), int(values.max())
                counts = np.bincount(values - lo, weights=sub["count"].to_numpy(), minlength=hi - lo + 1)
                ax.step(np.arange(lo, hi + 1), counts / counts.sum() * 100, where="mid", color=f"C{i}", label=f"{n}p")
        left.set(title="Final Wisdom per player", xlabel="Wisdom", ylabel="share of players (%)")
        right.set(title="Winning margin (first minus second)", xlabel="points", ylabel="share of games (%)")
        left.legend(fontsize=8)
        return png(fig)


def stacked_sources(sources: pl.DataFrame) -> bytes:
    """Mean Wisdom by source per (player count, persona), stacked; penalties stack below zero."""
    groups = sources.select("players", "policy").unique(maintain_order=True).rows()
    names = sources["source"].unique(maintain_order=True).to_list()
    with figure(7.5, 3.8) as fig:
        ax = fig.subplots()
        x = np.arange(len(groups))
        pos, neg = np.zeros(len(groups)), np.zeros(len(groups))
        for k, source in enumerate(names):
            sub = sources.filter(pl.col("source") == source)
            values = np.array(
                [sub.filter(pl.col("players") == n, pl.col("policy") == pol)["mean"].sum() for n, pol in groups]
            )
            if not np.any(values):
                continue
            base = np.where(values >= 0, pos, neg)
            ax.bar(x, values, bottom=base, label=source, color=f"C{k % 10}", hatch="//" if k >= 10 else None)
            pos, neg = pos + np.clip(values, 0, None), neg + np.clip(values, None, 0)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(x, [f"{n}p {pol}" for n, pol in groups], fontsize=8, rotation=30 if len(groups) > 6 else 0)
        ax.set(title="Where Wisdom comes from (mean per player)", ylabel="Wisdom")
        ax.legend(fontsize=7, ncols=2, bbox_to_anchor=(1.01, 1), loc="upper left")
        return png(fig)


def suspicion_line(by_turn: pl.DataFrame) -> bytes:
    """Mean suspicion after each turn across the year, per player count, with season boundaries."""
    with figure(7.5, 3.2) as fig:
        ax = fig.subplots()
        for i, ((n,), sub) in enumerate(by_turn.group_by("players", maintain_order=True)):
            ax.plot(sub["turn_of_year"], sub["mean"], marker="o", markersize=3, color=f"C{i}", label=f"{n} players")
        last = max(by_turn["turn_of_year"].to_list(), default=0)
        for boundary in range(5, last, 5):
            ax.axvline(boundary + 0.5, color="grey", linewidth=0.6, linestyle=":")
        ax.set(title="Mean suspicion across the year", xlabel="turn (5 per season)", ylabel="suspicion")
        ax.legend(fontsize=8)
        return png(fig)


def card_mix(mix: pl.DataFrame) -> bytes:
    """Share of each action card per season (or whole game), one panel per player count."""
    counts = sorted(mix["players"].unique().to_list())
    actions = sorted(mix["action"].unique().to_list())
    with figure(7.5, 3.4) as fig:
        axes = fig.subplots(1, len(counts), squeeze=False, sharey=True)[0]
        for ax, n in zip(axes, counts, strict=True):
            sub = mix.filter(pl.col("players") == n)
            seasons = sorted(sub["season"].unique().to_list())
            bottom = np.zeros(len(seasons))
            for k, action in enumerate(actions):
                share = np.array(
                    [
                        sub.filter(pl.col("season") == s, pl.col("action") == action)["share"].sum() * 100
                        for s in seasons
                    ]
                )
                ax.bar(range(len(seasons)), share, bottom=bottom, color=f"C{k % 10}", label=action)
                bottom += share
            ax.set_xticks(range(len(seasons)), ["game" if s == 0 else f"S{s}" for s in seasons])
            ax.set_title(f"{n} players")
        axes[0].set_ylabel("share of cards played (%)")
        axes[-1].legend(fontsize=7, bbox_to_anchor=(1.01, 1), loc="upper left")
        return png(fig)


def forest(
    labels: list[str], effect: np.ndarray, lo: np.ndarray, hi: np.ndarray, flagged: np.ndarray, title: str, xlabel: str
) -> bytes:
    """Effects with 95% intervals, flagged ones highlighted; the top row is the first label."""
    with figure(7.5, 1.0 + 0.3 * len(labels)) as fig:
        ax = fig.subplots()
        y = np.arange(len(labels))[::-1]
        for mask, colour, name in ((~flagged, "C0", "not flagged"), (flagged, "C1", "flagged")):
            if mask.any():
                err = np.vstack([effect[mask] - lo[mask], hi[mask] - effect[mask]])
                ax.errorbar(effect[mask], y[mask], xerr=err, fmt="o", color=colour, markersize=4, capsize=3, label=name)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(y, labels, fontsize=8)
        ax.set(title=title, xlabel=xlabel)
        ax.legend(fontsize=8, loc="best")
        return png(fig)


def heatmap(table: pl.DataFrame, rows: list[str], cols: list[str], title: str, label: str) -> bytes:
    """A generic row x column heat map of ``table`` (columns row, col, value, text)."""
    grid = np.full((len(rows), len(cols)), np.nan)
    text = {}
    for r, c, v, t in table.select("row", "col", "value", "text").iter_rows():
        grid[rows.index(r), cols.index(c)] = v
        text[rows.index(r), cols.index(c)] = t
    limit = max(2.0, float(np.nanmax(np.abs(grid))))
    with figure(7.5, 1.4 + 0.38 * len(rows)) as fig:
        ax = fig.subplots()
        im = ax.imshow(grid, cmap=DIVERGING, vmin=-limit, vmax=limit, aspect="auto")
        for (i, j), t in text.items():
            ax.text(j, i, t, ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(cols)), cols, fontsize=8)
        ax.set_yticks(range(len(rows)), rows, fontsize=8)
        ax.set_title(title)
        fig.colorbar(im, ax=ax, label=label)
        return png(fig)


def histogram(values: pl.DataFrame, column: str, title: str, xlabel: str) -> bytes:
    """Bar chart of a value/games count table (e.g. the Widow's Wisdom)."""
    with figure(7.5, 3.0) as fig:
        ax = fig.subplots()
        ax.bar(values[column].to_numpy(), values["games"].to_numpy(), color="C0")
        ax.set(title=title, xlabel=xlabel, ylabel="games")
        return png(fig)


def sweep_response(seats: pl.DataFrame, score: pl.DataFrame, axis: str) -> bytes:
    """Win rate per seat and winning score against the values of one override axis, one row of panels per player
    count, with 95% intervals and the fair-share line (values placed in order; text values evenly spaced)."""
    counts = sorted(seats["players"].unique().to_list())
    values = score[axis].unique(maintain_order=True).to_list()
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    where = {v: (float(v) if numeric else float(i)) for i, v in enumerate(values)}
    with figure(7.5, 0.6 + 2.6 * len(counts)) as fig:
        axes = fig.subplots(len(counts), 2, squeeze=False)
        for (left, right), n in zip(axes, counts, strict=True):
            sub = seats.filter(pl.col("players") == n)
            for seat in sorted(sub["seat"].unique().to_list()):
                s = sub.filter(pl.col("seat") == seat)
                x = np.array([where[v] for v in s[axis].to_list()])
                y = s["win_rate"].to_numpy() * 100
                err = np.vstack([y - s["lo"].to_numpy() * 100, s["hi"].to_numpy() * 100 - y])
                left.errorbar(
                    x, y, yerr=err, marker="o", markersize=3, capsize=3, color=f"C{seat}", label=seat_name(seat)
                )
            left.axhline(100 / n, color="grey", linestyle="--", linewidth=0.8, label="fair share")
            left.set(title=f"{n} players: win rate by seat", ylabel="win rate (%)")
            sc = score.filter(pl.col("players") == n)
            x = np.array([where[v] for v in sc[axis].to_list()])
            y = sc["mean"].to_numpy()
            err = np.vstack([y - sc["lo"].to_numpy(), sc["hi"].to_numpy() - y])
            right.errorbar(x, y, yerr=err, marker="o", markersize=3, capsize=3, color="C0")
            right.set(title=f"{n} players: winning score", ylabel="points")
            for ax in (left, right):
                ax.set_xticks([where[v] for v in values], [str(v) for v in values], fontsize=8)
                ax.set_xlabel(axis)
            left.legend(fontsize=7, loc="best")
        return png(fig)


def effect_panels(
    panels: list[tuple[str, list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]], title: str
) -> bytes:
    """Effects with 95% intervals, one panel per metric (each on its own axis and unit): (metric axis label,
    row labels, effect, lo, hi, significant) per panel; significant rows highlighted."""
    rows = max(len(p[1]) for p in panels)
    with figure(7.5, 0.9 + (0.25 * rows + 0.7) * len(panels)) as fig:
        axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
        for ax, (xlabel, labels, effect, lo, hi, flagged) in zip(axes, panels, strict=True):
            y = np.arange(len(labels))[::-1]
            for mask, colour, name in ((~flagged, "C0", "not significant"), (flagged, "C1", "significant")):
                if mask.any():
                    err = np.vstack([effect[mask] - lo[mask], hi[mask] - effect[mask]])
                    ax.errorbar(
                        effect[mask], y[mask], xerr=err, fmt="o", color=colour, markersize=4, capsize=3, label=name
                    )
            ax.axvline(0, color="black", linewidth=0.8)
            ax.set_yticks(y, labels, fontsize=7)
            ax.set_xlabel(xlabel, fontsize=8)
        fig.suptitle(title)
        axes[0].legend(fontsize=7, loc="best")
        return png(fig)
