"""Pydantic schemas of a content pack, one module per TOML file (``rules.py`` for rules.toml, ...), composed into
``Pack`` with the checks that span files. The loader validates the whole tree (after overrides) through ``Pack``;
every bound says in a comment why it is what it is."""

from septima_sim.content.schema.common import Fault, Schema
from septima_sim.content.schema.pack import FILES, NAMESPACE_FILE, Pack
from septima_sim.content.schema.paths import declared, is_table

__all__ = ["FILES", "NAMESPACE_FILE", "Fault", "Pack", "Schema", "declared", "is_table"]
