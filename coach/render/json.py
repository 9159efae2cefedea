"""JSON rendering: one object per clip; JSON Lines for a batch."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from coach.render.common import jsonable
from coach.report import ClipReport


def clip_object(report: ClipReport) -> dict[str, Any]:
    """The JSON object of a clip: :meth:`ClipReport.to_dict` made safe for :func:`json.dumps`.

    Numpy scalars become Python numbers, tuples become lists and NaN becomes null.
    """
    return jsonable(report.to_dict())


def json_line(report: ClipReport) -> str:
    """The clip as one compact JSON line (no newline): a row of JSON Lines."""
    return json.dumps(
        clip_object(report), ensure_ascii=False, allow_nan=False, separators=(",", ":")
    )


def render_json(reports: Sequence[ClipReport]) -> str:
    """Render clips as JSON.

    One clip gives one pretty-printed object; several give JSON Lines (one compact object
    per line, in input order). The text ends with a newline ("" for no clips).
    """
    if not reports:
        return ""
    if len(reports) == 1:
        return (
            json.dumps(clip_object(reports[0]), indent=2, ensure_ascii=False, allow_nan=False)
            + "\n"
        )
    return "\n".join(json_line(r) for r in reports) + "\n"
