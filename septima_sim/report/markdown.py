"""Values written into ``summary.md``: escaped for Markdown, not for HTML.

The HTML report escapes every value as HTML (autoescape). In Markdown, HTML entities would show up as ``&#39;`` in a
terminal, while a raw ``<`` could still become a tag in a Markdown renderer. So every value is backslash-escaped where
Markdown would read it as markup (CommonMark lets any ASCII punctuation be escaped): HTML tags and entities, code
spans, table cell bars, link openers; a newline becomes a space (a value never starts a new block).
"""

from __future__ import annotations

import re

_MARKUP = re.compile(r"([\\`<>&|]|\](?=[(\[:]))")


def md_escape(value: object) -> object:
    """Backslash-escape `value`'s Markdown markup (strings only; numbers and None pass through)."""
    if not isinstance(value, str):
        return value
    return _MARKUP.sub(r"\\\1", value.replace("\r", " ").replace("\n", " "))
