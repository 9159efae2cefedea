"""CSV rendering: the headline figures, one row per clip."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from coach.render.common import jsonable
from coach.report import HEADLINE_COLUMNS, ClipReport, headline


def render_csv(reports: Sequence[ClipReport]) -> str:
    """Render clips as CSV: a header of :data:`coach.report.HEADLINE_COLUMNS`, then one row
    per clip from :func:`coach.report.headline` (lines end with "\\n")."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=HEADLINE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for r in reports:
        row = jsonable(headline(r))
        writer.writerow({k: "" if row.get(k) is None else row.get(k) for k in HEADLINE_COLUMNS})
    return buf.getvalue()
