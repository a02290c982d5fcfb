"""Headlines that lead: seat findings per setting first (flagged, largest gap first), seats named by colour and
animals, skill robustness across lineups, module effects neutral, at most ten lines."""

from __future__ import annotations

import polars as pl

from septima_sim.analysis import Settings
from septima_sim.analysis.expansions import registered
from septima_sim.analysis.metrics import seat_balance
from septima_sim.analysis.skill import DEPENDS, HOLDS, WEAK_ONLY, verdict
from septima_sim.report.headlines import MAX_HEADLINES, headlines
from septima_sim.report.names import SeatNames
from septima_sim.report.sections.seats import SeatTables

KEYS = ["players", "mode", "shapeshifting", "omens", "omen_deck", "solo"]
GAMES = 600
MODULES = registered()
FAIR4 = [0.25, 0.25, 0.25, 0.25]


def _setting(players: int, ss: bool, rates: dict[str, list[float]]) -> list[dict[str, object]]:
    """Player rows of one setting: per lineup, seat s wins ``rates[lineup][s]`` of GAMES games."""
    rows = []
    for lineup, seat_rates in rates.items():
        for seat, rate in enumerate(seat_rates):
            wins = round(rate * GAMES)
            for i in range(GAMES):
                rows.append(
                    {"players": players, "mode": "full", "shapeshifting": ss, "omens": False, "omen_deck": "none",
                     "solo": False, "lineup": lineup, "seat": seat, "order": (seat + i) % players, "won": i < wins}
                )  # fmt: skip
    return rows


def _tables(rows: list[dict[str, object]]) -> SeatTables:
    s = Settings()
    players = pl.DataFrame(rows)
    cells = players.select(*KEYS, "lineup").unique().with_columns(cell_id=pl.concat_str(pl.all().cast(pl.String)))
    return SeatTables(
        seat_balance(players, s, by=KEYS),
        seat_balance(players, s, by=KEYS, position="order"),
        cells,
        KEYS,
        SeatNames(None, MODULES),
        [],
        MODULES,
        s.seat_tolerance,
        seat_balance(players, s, by=[*KEYS, "lineup"]),
        seat_balance(players, s, by=[*KEYS, "lineup"], position="order"),
        {"all-random"},
    )


MODS = pl.DataFrame(
    {"module": ["shapeshifting"], "players": [4], "metric": ["winning_score"], "other_module_on": [None],
     "delta": [-6.0], "lo": [-7.0], "hi": [-5.0], "p": [0.001], "p_adj": [0.001], "setting": [""]},
    schema_overrides={"other_module_on": pl.Boolean},
)  # fmt: skip


def test_flagged_seats_lead_named_by_colour_and_animals_with_skill_robustness() -> None:
    rows = (
        _setting(4, False, {"all-random": FAIR4, "all-balanced": FAIR4})
        + _setting(4, True, {"all-random": [0.3, 0.3, 0.33, 0.07], "all-balanced": [0.3, 0.3, 0.35, 0.05]})
        + _setting(3, True, {"all-random": [0.55, 0.25, 0.2], "all-balanced": [0.33, 0.34, 0.33]})
        + _setting(2, True, {"all-random": [0.5, 0.5], "all-balanced": [0.3, 0.7]})
    )
    found = headlines(_tables(rows), pl.DataFrame(), MODS, None)
    texts = [h.text for h in found.lines]
    assert texts[0].startswith("Gray (Goat/Hare) wins 6.0% [")
    assert " at 4 players with Shapeshifting (fair 25.0%; 1,200 games; " in texts[0]
    assert texts[0].endswith(f": flagged; {HOLDS}")
    assert texts[1].startswith("Green (Serpent/Toad) wins 44.0% [") and texts[1].endswith(f": flagged; {WEAK_ONLY}")
    assert texts[2].startswith("Green (Serpent/Toad) wins 40.0% [") and texts[2].endswith(f": flagged; {DEPENDS}")
    assert (
        "Green wins 25.0%" in texts[3] and "at 4 players without modules" in texts[3]
    )  # no animals without the module
    assert [h.tone for h in found.lines] == ["flagged"] * 3 + ["unclear", "neutral"]
    assert texts[4].startswith("Shapeshifting on vs off (paired by seed): winning score -6.0 [-7.0, -5.0] at 4p")
    assert "not a fairness problem" in texts[4]


def test_at_most_ten_headlines_the_other_settings_summed_up() -> None:
    rows = []
    for players in (2, 3, 4):
        for ss in (False, True):
            for mode_rates in ([0.05] + [0.95 / (players - 1)] * (players - 1), [1 / players] * players):
                rows += [
                    dict(r, omen_deck=str(mode_rates[0])) for r in _setting(players, ss, {"all-random": mode_rates})
                ]
    tables = _tables(rows)
    found = headlines(tables, pl.DataFrame(), MODS, None)
    assert len(found.lines) <= MAX_HEADLINES
    flagged = [h for h in found.lines if h.tone == "flagged"]
    assert flagged == found.lines[: len(flagged)] and len(flagged) == 6
    gaps = [
        abs(float(h.text.split(" wins ")[1].split("%")[0]) - 100 / int(h.text.split(" at ")[1][0])) for h in flagged
    ]
    assert gaps == sorted(gaps, reverse=True)
    assert found.lines[6].text.startswith("6 more setting(s) in Seat balance (6 unclear)")
    assert all(DEPENDS not in h.text and HOLDS not in h.text for h in found.lines)  # one lineup: nothing to say


def test_skill_verdict_from_the_lineups_a_finding_shows_in() -> None:
    weak = {"all-random"}
    assert verdict({"all-random": True, "all-balanced": True, "all-search": True}, weak) == HOLDS
    assert verdict({"all-random": True, "all-balanced": False, "all-search": False}, weak) == WEAK_ONLY
    assert verdict({"all-random": False, "all-balanced": True, "all-search": False}, weak) == DEPENDS
    assert verdict({"all-random": False, "all-balanced": False}, weak) == DEPENDS
    assert verdict({"all-random": True}, weak) is None
