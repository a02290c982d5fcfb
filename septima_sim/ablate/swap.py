"""``ablate``'s ``swap`` arm (issue 30): is a seat's advantage the seat's or its animal tiles'? For a pair of colours
the same seeds are played again with the two colours' tiles exchanged (``variant.write_swap``), and four paired
effects are measured in every cell with Shapeshifting (positive: better in the swapped game):

- ``seat:<colour>``: that seat with the other colour's tiles minus the same seat with its own, in the same game
  (large when the tiles matter);
- ``tiles:<colour>:<a>+<b>``: that colour's tiles at the other seat (swapped game) minus the same tiles at their own
  seat (unchanged game), in the same game (large when the seat matters).

If the advantage follows the tiles, the seat rows move and the tile rows stay near 0; if it is the seat's, the
reverse. Rows are written to ``ablation.csv`` with ``arm = swap:<colour>-<colour>``.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from pathlib import Path

import polars as pl

from septima_sim.ablate.arms import SWAP
from septima_sim.ablate.effects import KEYS, SEAT_KEYS, Effect, Frames, in_play, per_cell
from septima_sim.ablate.kinds import KINDS
from septima_sim.content.loader import content_tree
from septima_sim.engine.config import COLOURS

ANIMAL = KINDS["animal"]


def tiles(content_dir: Path | None) -> dict[str, list[str]]:
    """Colour -> the ids of its animal tiles, in file order."""
    out: dict[str, list[str]] = {}
    for ident, tile in content_tree(content_dir).get(ANIMAL.namespace, {}).items():
        out.setdefault(str(tile.get("colour")), []).append(ident)
    return out


def pairs(content_dir: Path | None, seats: int) -> list[tuple[str, str]]:
    """Every pair of seat colours (in seat order, among the first ``seats``) whose tiles can be exchanged."""
    have = tiles(content_dir)
    return list(combinations([c for c in COLOURS[:seats] if have.get(c)], 2))


def pair_name(pair: tuple[str, str]) -> str:
    """``orange-gray``: the pair as ``--only`` and the ``arm`` column spell it."""
    return f"{pair[0]}-{pair[1]}"


def arm_name(pair: tuple[str, str]) -> str:
    return f"{SWAP}:{pair_name(pair)}"


def tiles_label(colour: str, ids: list[str]) -> str:
    """``tiles:orange:fox+squirrel``: the row of a colour's tiles (as the unchanged game deals them) moved."""
    return f"tiles:{colour}:{'+'.join(ids)}"


def swap_effects(
    pair: tuple[str, str], held: dict[str, list[str]], base: Frames, arm: Frames, by: str = "cell_id"
) -> list[Effect]:
    """The four paired effects of exchanging the tiles of ``pair`` (module docstring), per cell with Shapeshifting;
    ``held`` names each colour's tiles in the unchanged game."""
    base = in_play(ANIMAL, base)
    if base.players.is_empty() or arm.players.is_empty():
        return []
    first, second = pair
    out: list[Effect] = []
    for colour, other in ((first, second), (second, first)):
        own = _seat(base, colour).select(*SEAT_KEYS, "players", won_a="won", w_a="wisdom")
        same_seat = own.join(_seat(arm, colour).select(*SEAT_KEYS, won_b="won", w_b="wisdom"), on=SEAT_KEYS)
        out += [replace(e, label=f"seat:{colour}") for e in per_cell(same_seat, by, game_level=False)]
        same_tiles = own.join(_seat(arm, other).select(*KEYS, won_b="won", w_b="wisdom"), on=KEYS)
        label = tiles_label(colour, held.get(colour, []))
        out += [replace(e, label=label) for e in per_cell(same_tiles, by, game_level=False)]
    return out


def _seat(frames: Frames, colour: str) -> pl.DataFrame:
    return frames.players.filter(pl.col("colour") == colour)
