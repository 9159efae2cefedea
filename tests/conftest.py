"""Shared helpers: transcript builders and the generated audio fixtures.

Nothing here loads a model. The fixtures in audio_fixtures/ come from
scripts/make_fixtures.py, which also writes audio_fixtures/manifest.json.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from coach.transcript import Word

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "audio_fixtures"
"""Folder of the generated audio fixtures."""


def words(*items: tuple[str, float, float]) -> list[Word]:
    """Words from ``(text, start_s, end_s)`` tuples."""
    return [Word(text, start, end) for text, start, end in items]


def spaced(
    text: str, *, start_s: float = 0.0, step_s: float = 0.3, dur_s: float = 0.25
) -> list[Word]:
    """Words of ``text`` (split on spaces), one every ``step_s`` seconds, ``dur_s`` long."""
    return [
        Word(tok, round(start_s + i * step_s, 3), round(start_s + i * step_s + dur_s, 3))
        for i, tok in enumerate(text.split())
    ]


def fixture_path(name: str) -> Path:
    """Path of a generated fixture; fails with what to run if it is missing."""
    path = FIXTURES / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run `.venv/bin/python scripts/make_fixtures.py`")
    return path


@cache
def _manifest() -> dict[str, Any]:
    return json.loads(fixture_path("manifest.json").read_text())


def manifest_entry(name: str) -> dict[str, Any]:
    """The manifest's entry for one fixture file."""
    return _manifest()["fixtures"][name]
