"""Outcome columns inside the baseline JSON: each frame as zstd-compressed Parquet, base64-encoded (typed, compact,
read back exactly; a million games take a few MB instead of lists of JSON numbers)."""

from __future__ import annotations

import base64
import binascii
import io

import polars as pl


def encode(frame: pl.DataFrame) -> str:
    """The frame as base64 text of a zstd Parquet file (column types kept)."""
    buf = io.BytesIO()
    frame.write_parquet(buf, compression="zstd", statistics=False)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def decode(text: str) -> pl.DataFrame:
    """The frame ``encode`` wrote; ValueError when the text is not one."""
    if not isinstance(text, str):
        raise ValueError(f"expected encoded outcome data (text), got {type(text).__name__}")
    try:
        data = base64.b64decode(text, validate=True)
    except binascii.Error as exc:
        raise ValueError(f"outcome data is not base64 ({exc})") from None
    try:
        return pl.read_parquet(io.BytesIO(data))
    except pl.exceptions.PolarsError as exc:
        raise ValueError(f"outcome data is not Parquet ({exc})") from None
