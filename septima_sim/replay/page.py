"""The replay page: one self-contained HTML file (data, script and style inline; no network, works from file://).

The recorded frames are delta-encoded (each frame stores only the top-level fields and per-seat fields that changed
since the previous one); the page's script rebuilds every frame at load. The final screen's score table is the game
record (``GameResult.players``) rendered as is.
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from septima_sim.replay.snapshot import Recording

FINAL_COLUMNS = ("seat", "colour", "policy", "rank", "won", "wisdom", "suspicion_end", "witches_end")
"""Columns of a players row the final screen shows besides the Wisdom sources (never the dealt goals)."""


def delta_frames(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first frame whole, then per frame only what changed: top-level keys, and under ``players`` a map from
    seat number (as a string) to that seat's changed keys."""
    out: list[dict[str, Any]] = [frames[0]] if frames else []
    for prev, cur in itertools.pairwise(frames):
        delta: dict[str, Any] = {}
        for key, value in cur.items():
            if key == "players":
                seats = {}
                for s, (a, b) in enumerate(zip(prev[key], value, strict=True)):
                    changed = {k: v for k, v in b.items() if a.get(k) != v}
                    if changed:
                        seats[str(s)] = changed
                if seats:
                    delta[key] = seats
            elif prev.get(key) != value:
                delta[key] = value
        out.append(delta)
    return out


def script_json(data: object) -> str:
    """JSON safe to place inside a <script> element: ``<``, ``>``, ``&`` and ``/`` are escaped (so neither
    ``</script>``, ``<!--`` nor a URL scheme's ``//`` can appear), and so are U+2028/U+2029."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"), sort_keys=True)
    for raw, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("/", "\\/"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def _asset(name: str) -> str:
    return resources.files("septima_sim.replay").joinpath("assets", name).read_text(encoding="utf-8")


def render_page(recording: Recording, title: str) -> str:
    """The whole HTML page of a recorded game."""
    sources: list[str] = recording.config["sources"]
    rows: list[dict[str, Any]] = [
        {**{k: row.get(k) for k in FINAL_COLUMNS}, "sources": [row.get(f"wisdom_{s}", 0) for s in sources]}
        for row in recording.result.players
    ]
    shown = [i for i, _ in enumerate(sources) if any(r["sources"][i] for r in rows)]
    payload = {
        "title": title,
        "config": recording.config,
        "board": recording.board,
        "names": recording.names,
        "events": [{k: v for k, v in e.items() if k != "changes"} for e in recording.events],  # the frames hold them
        "deltas": delta_frames(recording.frames),
        "final": {"wisdom": [r["wisdom"] for r in rows], "suspicion": [r["suspicion_end"] for r in rows]},
    }
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("septima_sim.replay", "assets"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    game = recording.result.game
    return env.get_template("replay.html.j2").render(
        title=title,
        rows=sorted(rows, key=lambda r: (r["rank"], r["seat"])),
        sources=[sources[i] for i in shown],
        shown=shown,
        game=game,
        style=Markup(_asset("replay.css")),
        script=Markup(_asset("replay.js")),
        data=Markup(script_json(payload)),
    )


def ordinary_mode() -> int:
    """The mode ``open()`` gives a new file: 0o666 less the process's umask (read without changing it for good)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_page(recording: Recording, title: str, out_path: Path) -> Path:
    """Write the page atomically (a temporary file renamed into place)."""
    out_path = Path(out_path)
    html = render_page(recording, title)
    fd, tmp = tempfile.mkstemp(prefix=".replay-", suffix=".html", dir=out_path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(html)
        os.chmod(tmp, ordinary_mode())  # mkstemp makes it 0600
        os.replace(tmp, out_path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out_path
