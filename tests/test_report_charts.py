"""Chart titles are never clipped: a title wider than the room around its centre is wrapped at word boundaries."""

from __future__ import annotations

from matplotlib.figure import Figure

from septima_sim.report import charts

LONG = "Ablation: win rate with the component minus without it, per cell and seat, paired by seed, all lineups pooled"
LABELS = [f"p4-full-ss1-om1-random-all-balanced witch:{i}" for i in range(4)]  # long labels push the axes right


def _inside(fig: Figure) -> list[str]:
    """The titles (axes and figure) that run past the figure's left or right edge."""
    fig.draw_without_rendering()
    out = []
    for t in [ax.title for ax in fig.axes] + list(fig.texts):
        box = t.get_window_extent()
        if box.x0 < fig.bbox.x0 or box.x1 > fig.bbox.x1:
            out.append(t.get_text())
    return out


def test_a_long_axes_title_beside_long_labels_is_wrapped_to_fit() -> None:
    with charts.figure(7.5, 2.5) as fig:
        ax = fig.subplots()
        ax.set_yticks(range(len(LABELS)), LABELS, fontsize=8)
        ax.set_title(LONG)
        assert _inside(fig) == [LONG]  # as drawn before: clipped
        charts.fit_titles(fig)
        assert _inside(fig) == [] and "\n" in ax.get_title()
        assert " ".join(ax.get_title().split()) == LONG  # every word kept


def test_a_long_figure_title_is_wrapped_and_a_short_one_left_alone() -> None:
    with charts.figure(5.0, 3.0) as fig:
        axes = fig.subplots(1, 2)
        axes[0].set_title("2 players")
        fig.suptitle(LONG)
        charts.fit_titles(fig)
        assert _inside(fig) == [] and axes[0].get_title() == "2 players"
        assert "\n" in fig.texts[0].get_text()
