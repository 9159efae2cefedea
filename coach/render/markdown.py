"""Markdown rendering: a section per clip, a summary table first for a batch."""

from __future__ import annotations

import re
from collections.abc import Sequence

from coach.render.common import (
    SUMMARY_HEADERS,
    chunks,
    clock,
    duration,
    error_line,
    figures,
    paragraphs,
    summary_row,
    tip_lines,
)
from coach.report import ClipReport

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def escape(text: str) -> str:
    """Backslash-escape the characters Markdown would read as markup (and table pipes)."""
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, numeric_from: int | None = None
) -> list[str]:
    """A Markdown table; columns from index ``numeric_from`` on are right-aligned."""
    lines = ["| " + " | ".join(escape(h) for h in headers) + " |"]
    rule = [
        "---:" if numeric_from is not None and i >= numeric_from else "---"
        for i in range(len(headers))
    ]
    lines.append("|" + "|".join(rule) + "|")
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows]
    return lines


def transcript(report: ClipReport) -> list[str]:
    """The transcript as Markdown paragraphs, each opened by its time, fillers in **bold**."""
    if not report.words:
        return [escape(report.transcript)] if report.transcript else []
    out = []
    for para in paragraphs(report.words):
        parts = []
        for c in chunks(para):
            core = f"**{escape(c.text)}**" if c.filler else escape(c.text)
            parts.append(escape(c.lead) + core + escape(c.trail))
        out.append(f"`{clock(para[0].start_s)}` " + " ".join(parts))
    return out


def clip_section(report: ClipReport, *, level: int = 1) -> str:
    """One clip as Markdown: heading, figures table, tips, transcript.

    Args:
        report: the clip.
        level: heading level of the clip's title (1 for a single clip, 2 in a batch).
    """
    h = "#" * level
    lines = [f"{h} {escape(report.file)}", ""]
    if report.error is not None:
        return "\n".join(lines + [escape(error_line(report)), ""])
    meta = [f"Length {duration(report.duration_s)}", f"{report.word_count} words"]
    if report.asr_model:
        meta.append(f"model {escape(report.asr_model)}")
    lines += [" · ".join(meta), ""]
    rows = [[f.label, f.value + (" ⚠" if f.flagged else ""), f.detail] for f in figures(report)]
    lines += table(["Figure", "Value", "Detail"], rows) + [""]
    lines += [f"{h}# Tips", ""]
    tips = tip_lines(report)
    if tips:
        lines += [
            f"{i}. {escape(msg)}" + (f" (at {at})" if at else "")
            for i, (msg, at) in enumerate(tips, 1)
        ]
    else:
        lines.append("Nothing stands out: every figure is within its target.")
    lines += ["", f"{h}# Transcript", ""]
    for para in transcript(report):
        lines += [para, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_markdown(reports: Sequence[ClipReport]) -> str:
    """Render clips as Markdown.

    One clip gives its section; several give a title, a summary table (one row per clip)
    and a section per clip. Fillers in transcripts are in **bold**.
    """
    if not reports:
        return ""
    if len(reports) == 1:
        return clip_section(reports[0], level=1)
    lines = [f"# coach report: {len(reports)} clips", ""]
    lines += table(SUMMARY_HEADERS, [summary_row(r) for r in reports], numeric_from=1) + [""]
    failed = [r for r in reports if r.error is not None]
    if failed:
        lines += ["Not scored:", ""] + [f"- {escape(error_line(r))}" for r in failed] + [""]
    sections = [clip_section(r, level=2) for r in reports]
    return "\n".join(lines) + "\n" + "\n".join(sections)
