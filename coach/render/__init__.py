"""Renderings of clip reports: text, JSON, CSV, Markdown and HTML of one structure.

Every format renders the same :class:`coach.report.ClipReport` (its ``to_dict()`` and
dataclasses); a clip whose ``error`` is set is shown as its error in every format.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from coach.errors import OptionsError
from coach.render.csv import render_csv
from coach.render.json import render_json
from coach.render.markdown import render_markdown
from coach.render.text import print_reports, render_text
from coach.report import ClipReport

FORMATS = ("text", "json", "csv", "md", "html")
"""Output formats; "html" is written to files with :func:`write_html`."""

_RENDERERS = {
    "text": render_text,
    "json": render_json,
    "csv": render_csv,
    "md": render_markdown,
}


def render(reports: Sequence[ClipReport], fmt: str) -> str:
    """Render clip reports as one string.

    Args:
        reports: the clips, in the order to show them.
        fmt: "text" (the terminal report as plain text, 100 columns), "json" (one pretty
            object for one clip, JSON Lines for several), "csv" (headline figures, one row
            per clip) or "md" (Markdown).

    Returns:
        The rendering; it ends with a newline unless empty.

    Raises:
        OptionsError: ``fmt`` is not one of those (for "html" use :func:`write_html`).
    """
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        hint = "; html is written to files with write_html()" if fmt == "html" else ""
        raise OptionsError(
            f"unknown output format {fmt!r}: use one of {', '.join(_RENDERERS)}{hint}"
        ) from None
    return renderer(list(reports))


def write_html(
    reports: Sequence[ClipReport], out_path: Path, *, embed_audio: bool = True
) -> list[Path]:
    """Write self-contained HTML pages (see :func:`coach.render.html.write_html`).

    Args:
        reports: the clips.
        out_path: a ".html" file for a single clip, otherwise a folder that gets one page
            per clip plus ``index.html``.
        embed_audio: embed each clip's recording so its moments can be played.

    Returns:
        The paths written.
    """
    from coach.render import html

    return html.write_html(list(reports), Path(out_path), embed_audio=embed_audio)


__all__ = ["FORMATS", "print_reports", "render", "write_html"]
