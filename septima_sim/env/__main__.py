"""``python -m septima_sim.env``: the observation and action layouts of the built-in content pack, as Markdown
(docs/env.md holds this output)."""

from __future__ import annotations

from septima_sim.env import ENCODING_VERSION, layouts
from septima_sim.env.aec import default_content


def main() -> None:
    encoder, actions = layouts(default_content())
    print(f"ENCODING_VERSION = {ENCODING_VERSION}; layout version {encoder.version}")
    print(f"observation: {encoder.size} float32 values ({encoder.seat_size} per seat block); actions: {actions.size}\n")
    print(encoder.table())
    print()
    print(actions.table())


if __name__ == "__main__":
    main()
