"""Read a TOML file a user gave (a config, a tune file, a content file, a persona file) with a one-line error."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


def read_toml(path: Path | str, error: type[Exception], what: str, label: str | None = None) -> dict[str, Any]:
    """The mapping of the TOML file at ``path``. Whatever keeps it from being read (missing, a folder, not UTF-8,
    invalid TOML, unreadable) raises ``error`` with one line that starts with ``label`` (default: the path) and names
    the file as ``what`` ("config file")."""
    name = str(path) if label is None else label
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise error(f"{name}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{name}: is a directory, expected a TOML file") from None
    except UnicodeDecodeError:
        raise error(f"{name}: not a UTF-8 text file (a {what} is TOML text)") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{name}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise error(f"{name}: cannot be read: {exc.strerror or exc}") from None
