"""Terminal rendering with rich: a header, a figures table, tips and a transcript excerpt."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from coach.render.common import (
    chunks,
    clock,
    duration,
    error_line,
    figures,
    summary_row,
    tip_lines,
)
from coach.report import ClipReport

EXCERPT_WORDS = 60
"""Words of the transcript shown in the terminal."""

WIDTH = 100
"""Width of the plain-text rendering, characters."""


def _header(report: ClipReport) -> RenderableType:
    meta = [f"length {duration(report.duration_s)}", f"{report.word_count} words"]
    if report.asr_model:
        meta.append(f"model {report.asr_model}")
    return Group(
        Rule(Text(report.file, style="bold"), align="left"),
        Text("  " + " · ".join(meta), style="dim"),
    )


def _figures_table(report: ClipReport) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    table.add_column("", style="bold", no_wrap=True)
    table.add_column("Figure", no_wrap=True, justify="right")
    table.add_column("Detail", overflow="fold")
    for f in figures(report):
        mark = Text(" !", style="bold yellow") if f.flagged else Text("  ")
        value = Text(f.value, style="yellow" if f.flagged else "green") + mark
        table.add_row(Text(f.label), value, Text(f.detail))
    return table


def _tips(report: ClipReport) -> RenderableType:
    tips = tip_lines(report)
    if not tips:
        return Text("  No tips: every figure is within its target.", style="green")
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1, 0, 0))
    table.add_column(justify="right", style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    table.add_column(style="dim", no_wrap=True)
    for i, (msg, at) in enumerate(tips, 1):
        table.add_row(f"  {i}.", Text(msg), f"at {at}" if at else "")
    return Group(Text(""), Text("Tips", style="bold"), table)


def excerpt(report: ClipReport, *, max_words: int = EXCERPT_WORDS) -> Text:
    """The start of the transcript, fillers shown as [um] and highlighted.

    Args:
        report: the clip.
        max_words: how many words to show before cutting with "...".
    """
    out = Text()
    if not report.words:
        words = report.transcript.split()
        out.append(" ".join(words[:max_words]))
        if len(words) > max_words:
            out.append(" ...", style="dim")
        return out
    for i, c in enumerate(chunks(report.words[:max_words])):
        if i:
            out.append(" ")
        if c.filler:
            out.append(c.lead)
            out.append(f"[{c.text}]", style="bold black on yellow")
            out.append(c.trail)
        else:
            out.append(c.lead + c.text + c.trail)
    rest = len(report.words) - max_words
    if rest > 0:
        out.append(f" ... ({rest} more words)", style="dim")
    return out


def clip_renderables(report: ClipReport) -> Iterator[RenderableType]:
    """What is printed for one clip, in order; an error clip is one line "file: error"."""
    if report.error is not None:
        yield Text(error_line(report), style="red")
        return
    yield _header(report)
    yield _figures_table(report)
    yield _tips(report)
    yield Text("")
    start = clock(report.words[0].start_s) if report.words else "0:00"
    yield Text.assemble(("Transcript", "bold"), (f" from {start}, fillers in [brackets]", "dim"))
    yield Padding(excerpt(report), (0, 0, 0, 2))
    yield Text("")


_SUMMARY_TEXT_HEADERS = (
    "File", "Length", "Words", "Pace\nwpm", "Pauses\n(long)", "Fillers\n(/min)", "Pitch\nst",
    "Vol\ndB", "Trail\noffs", "Reps", "Hedges",
)  # fmt: skip
"""Titles of the summary columns in the terminal (SUMMARY_HEADERS on two lines)."""


def _short_path(path: str, width: int = 18) -> str:
    """A long path cut at the front so its file name stays readable."""
    return path if len(path) <= width else "..." + path[-(width - 3) :]


def summary_table(reports: Sequence[ClipReport]) -> Table:
    """One row per clip with the headline figures (for a batch)."""
    table = Table(
        title="Summary",
        box=box.SIMPLE_HEAD,
        title_style="bold",
        show_edge=False,
        padding=(0, 1, 0, 0),
    )
    for i, name in enumerate(_SUMMARY_TEXT_HEADERS):
        if i == 0:
            table.add_column(name, overflow="ellipsis", no_wrap=True, max_width=18)
        else:
            table.add_column(name, justify="right", no_wrap=True)
    for r in reports:
        cells = summary_row(r)
        cells[0] = _short_path(cells[0])
        if r.error is not None:
            table.add_row(Text(cells[0], style="red"), Text("error", style="red"), *cells[2:])
        else:
            table.add_row(Text(cells[0]), *cells[1:])
    return table


def print_reports(reports: Sequence[ClipReport], console: Console | None = None) -> None:
    """Print clip reports to a rich console (stdout by default).

    Each clip gets a header, a figures table, numbered tips and a transcript excerpt; a
    batch of several clips ends with a summary table.

    Args:
        reports: the clips, in the order to show them.
        console: where to print; a new stdout Console if None.
    """
    console = console or Console()
    for r in reports:
        for part in clip_renderables(r):
            # soft_wrap: the error line stays one line however long
            console.print(part, highlight=False, soft_wrap=r.error is not None)
    if len(reports) > 1:
        console.print(summary_table(reports), highlight=False)


def render_text(reports: Sequence[ClipReport], *, width: int = WIDTH) -> str:
    """The terminal report as plain text (no colour codes), ``width`` characters wide."""
    console = Console(
        file=io.StringIO(), record=True, width=width, color_system=None, force_terminal=False
    )
    print_reports(reports, console)
    lines = console.export_text(styles=False).splitlines()
    return "".join(line.rstrip() + "\n" for line in lines)
