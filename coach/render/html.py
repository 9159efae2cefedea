"""HTML rendering: one self-contained page per clip, and an index page for a batch.

Pages load nothing from outside: the style sheet and script are inline and the charts are
inline SVG drawn with matplotlib. Per-frame tracks are bucketed to at most
:data:`MAX_POINTS` points per chart, so an hour-long clip still gives a page of a few
hundred kB plus its recording. The recording, its timeline of moments and the transcript
are one listening section (:mod:`coach.render.listen`).
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from coach import __version__
from coach.analysis.prosody import HOP_S, Tracks
from coach.render.common import (
    SUMMARY_HEADERS,
    clock,
    duration,
    error_line,
    figures,
    summary_row,
    tip_lines,
)
from coach.render.listen import LISTEN_CSS, LISTEN_JS, audio_data_uri, listen_html
from coach.report import ClipReport

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MAX_POINTS = 2000
"""Most points drawn per chart line (per-frame tracks are bucketed down to this)."""

MAX_LABELS = 60
"""Fillers are labelled with their text on the waveform only up to this many per clip."""

_CSS = """
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;
  background:#fafafa;margin:0}
main{max-width:1000px;margin:0 auto;padding:1.5em}
h1{font-size:1.5em;margin:.2em 0;word-break:break-all}
h2{font-size:1.15em;margin:1.6em 0 .5em;border-bottom:1px solid #ddd}
.meta{color:#666;margin:0}
.nav a,a{color:#2a5db0}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid #eee;vertical-align:top}
th{background:#f0f0f0;font-weight:600}
td.num{text-align:right;white-space:nowrap}
tr.warn td.value{color:#b35900;font-weight:600}
tr.warn td.value::after{content:" !"}
tr.ok td.value{color:#2b7a3d}
td.value{white-space:nowrap;font-weight:600}
ol.tips li{margin:.3em 0}
.at{color:#666;font-size:.9em;white-space:nowrap}
.error{color:#b00020;font-weight:600}
.note{color:#666;font-style:italic}
figure{margin:.5em 0 1em;background:#fff;border:1px solid #eee;padding:.3em}
figure svg{display:block;width:100%;height:auto}
figcaption{color:#666;font-size:.85em;padding:.2em .4em}
.transcript p{background:#fff;padding:.5em .8em;margin:.4em 0;border-left:3px solid #ddd}
.t{color:#888;font-size:.85em;margin-right:.5em;font-variant-numeric:tabular-nums}
mark{background:#ffe066;padding:0 .15em;border-radius:3px}
.pause{color:#888;font-size:.85em}
footer{color:#999;font-size:.8em;margin-top:3em}
"""


def escape(text: object) -> str:
    """``text`` as HTML text or attribute value (quotes escaped too)."""
    return html.escape(str(text), quote=True)


def document(title: str, body: str) -> str:
    """A whole self-contained page: ``title`` and the ``body`` HTML, the style inline."""

    listen = '<section class="listen"' in body
    css = _CSS + (LISTEN_CSS if listen else "")
    # with the script, the transcript shows one part at a time (no script: all of it)
    head_js = '<script>document.documentElement.className="js"</script>\n' if listen else ""
    tail_js = f"<script>{LISTEN_JS}</script>\n" if listen else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n{head_js}<style>{css}</style>\n</head>\n<body>\n<main>\n"
        f"{body}\n<footer>Made by coach {escape(__version__)}, offline.</footer>\n"
        f"</main>\n{tail_js}</body>\n</html>\n"
    )


# ---------------------------------------------------------------- downsampling


def bucket_envelope(envelope: np.ndarray, max_points: int = MAX_POINTS) -> tuple[np.ndarray, ...]:
    """Shrink a (min, max) waveform envelope to at most ``max_points`` buckets.

    Args:
        envelope: shape (n, 2), the min and max sample of each 10 ms frame.
        max_points: most buckets to return.

    Returns:
        (t_s, lo, hi): bucket start times in seconds, and the min and max of each bucket.
    """
    n = envelope.shape[0]
    k = max(1, math.ceil(n / max_points))
    m = math.ceil(n / k)
    pad = m * k - n
    lo = np.pad(envelope[:, 0], (0, pad), mode="edge").reshape(m, k).min(axis=1)
    hi = np.pad(envelope[:, 1], (0, pad), mode="edge").reshape(m, k).max(axis=1)
    return np.arange(m) * k * HOP_S, lo, hi


def bucket_pitch(f0_hz: np.ndarray, max_points: int = MAX_POINTS) -> tuple[np.ndarray, ...]:
    """Shrink a pitch track to at most ``max_points`` points (median of voiced frames).

    Args:
        f0_hz: pitch per 10 ms frame in Hz, NaN where unvoiced.
        max_points: most points to return.

    Returns:
        (t_s, f0_hz): bucket centre times in seconds and the median voiced pitch of each
        bucket in Hz (NaN where a bucket has no voiced frame, so the line breaks there).
    """
    n = f0_hz.size
    k = max(1, math.ceil(n / max_points))
    m = math.ceil(n / k)
    grid = np.pad(f0_hz.astype(np.float64), (0, m * k - n), constant_values=np.nan).reshape(m, k)
    voiced = ~np.isnan(grid)
    med = np.full(m, np.nan)
    has = voiced.any(axis=1)
    if has.any():
        # only buckets with a voiced frame: nanmedian warns on all-NaN rows
        med[has] = np.nanmedian(grid[has], axis=1)
    return (np.arange(m) * k + k / 2) * HOP_S, med


# ---------------------------------------------------------------- charts


_TICK_STEPS_S = (5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0)
"""Spacing of time ticks (s): the smallest giving at most 10 ticks is used."""


def _time_axis(ax: Axes, end_s: float) -> None:
    from matplotlib.ticker import FuncFormatter, MultipleLocator

    ax.set_xlim(0, max(end_s, 1e-3))
    if end_s >= 20:
        step = next((s for s in _TICK_STEPS_S if end_s / s <= 10), 3600.0)
        ax.xaxis.set_major_locator(MultipleLocator(step))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: clock(x)))
        ax.set_xlabel("time (m:ss)")
    else:
        ax.set_xlabel("time (s)")
    ax.grid(axis="x", color="#eee", lw=0.6)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def new_figure(height_in: float) -> Figure:
    """A blank chart figure the width of the page, ``height_in`` inches high."""
    from matplotlib.figure import Figure

    return Figure(figsize=(10, height_in), layout="constrained")


_PATH_DATA = re.compile(r'(\sd=")([^"]*)"')
_DECIMALS = re.compile(r"(\d\.\d)\d+")


def svg_element(fig: Figure, prefix: str) -> str:
    """The figure as an SVG element for inline use: no XML prolog, metadata or namespaces,
    path coordinates cut to 0.1 pt (a third of the size; invisible on screen), and element
    ids prefixed with ``prefix`` so several charts on one page keep distinct ids."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, count=1, flags=re.S)
    root_end = svg.index(">")
    root = svg[:root_end]
    root = re.sub(r'\s(?:xmlns(?::xlink)?|width|height)="[^"]*"', "", root)
    svg = root + ' role="img"' + svg[root_end:]
    svg = _PATH_DATA.sub(lambda m: m.group(1) + _DECIMALS.sub(r"\1", m.group(2)) + '"', svg)
    svg = svg.replace("xlink:href=", "href=")
    svg = svg.replace(' id="', f' id="{prefix}-').replace('href="#', f'href="#{prefix}-')
    return svg.replace("url(#", f"url(#{prefix}-")


def merge_spans(
    spans: Sequence[tuple[float, float]], resolution_s: float
) -> list[tuple[float, float]]:
    """Join time spans that overlap or lie closer than ``resolution_s`` (one chart pixel).

    Args:
        spans: (start, end) pairs in seconds, any order.
        resolution_s: gap below which two spans are drawn as one, seconds; spans shorter
            than this are widened to it so they stay visible.

    Returns:
        Merged (start, end) pairs in time order.
    """
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        b = max(b, a + resolution_s)
        if out and a - out[-1][1] < resolution_s:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _shade(ax: Axes, spans: list[tuple[float, float]], color: str, alpha: float = 1.0) -> None:
    """Shade time spans over the full height of ``ax`` as one SVG path (not one per span)."""
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as MplPath

    if not spans:
        return
    verts, codes = [], []
    for a, b in spans:
        verts += [(a, 0), (b, 0), (b, 1), (a, 1), (a, 0)]
        codes += [MplPath.MOVETO] + [MplPath.LINETO] * 3 + [MplPath.CLOSEPOLY]
    patch = PathPatch(
        MplPath(verts, codes), facecolor=color, alpha=alpha, lw=0,
        transform=ax.get_xaxis_transform(),
    )  # fmt: skip
    ax.add_patch(patch)


def waveform_chart(report: ClipReport, tracks: Tracks, end_s: float) -> str:
    """The waveform with pauses shaded and fillers marked, as inline SVG."""
    from matplotlib.patches import Patch

    t, lo, hi = bucket_envelope(tracks.envelope)
    peak = float(max(np.abs(lo).max(initial=0), np.abs(hi).max(initial=0), 1e-4))
    fig = new_figure(2.6)
    ax = fig.add_subplot()
    pixel_s = max(end_s, 1e-3) / MAX_POINTS
    pauses = report.pauses.items
    _shade(ax, merge_spans([(p.start_s, p.end_s) for p in pauses if not p.long], pixel_s),
           "#cfe0f5")  # fmt: skip
    _shade(ax, merge_spans([(p.start_s, p.end_s) for p in pauses if p.long], pixel_s),
           "#f5c6c6")  # fmt: skip
    ax.fill_between(t, lo, hi, color="#3b5b8c", lw=0.3, edgecolor="#3b5b8c")
    items = report.fillers.items
    filler_spans = [(f.start_s, max(f.end_s, f.start_s + 0.05)) for f in items]
    _shade(ax, merge_spans(filler_spans, pixel_s), "#ffb347", alpha=0.55)
    if len(items) <= MAX_LABELS:
        for i, f in enumerate(items):
            y = peak * (1.45 if i % 2 == 0 else 1.2)
            ax.text(
                (f.start_s + f.end_s) / 2, y, f.text, ha="center", va="center",
                fontsize=7, color="#8a4b00", parse_math=False, clip_on=True,
            )  # fmt: skip
    ax.set_ylim(-peak * 1.1, peak * 1.6)
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    _time_axis(ax, end_s)
    handles = [
        Patch(color="#cfe0f5", label="pause"),
        Patch(color="#f5c6c6", label=f"long pause ({report.pauses.long_threshold_s:g} s+)"),
        Patch(color="#ffb347", alpha=0.55, label="filler"),
    ]
    ax.legend(handles=handles, loc="lower right", bbox_to_anchor=(1, 1), fontsize=7, ncols=3,
              frameon=False)  # fmt: skip
    return svg_element(fig, "wave")


def pace_chart(report: ClipReport, end_s: float) -> str:
    """Pace per timeline window against the recommended band, as inline SVG.

    Windows judged fast or slow are marked (as dots, or as coloured stretches of the line
    when there are more than 150 windows).
    """
    pace = report.pace
    lo, hi = pace.band_wpm
    x = np.array([(p.start_s + p.end_s) / 2 for p in pace.timeline])
    y = np.array([p.wpm for p in pace.timeline])
    many = len(x) > 150
    fig = new_figure(2.2)
    ax = fig.add_subplot()
    ax.axhspan(lo, hi, color="#d8f0dc", lw=0, label=f"band {lo:.0f}-{hi:.0f} wpm")
    ax.plot(x, y, color="#555", lw=1.0, marker=None if many else "o", ms=2.5)
    for flag, color in (("fast", "#d9480f"), ("slow", "#1c7ed6")):
        sel = np.array([p.flag == flag for p in pace.timeline])
        if not sel.any():
            continue
        if many:
            ax.plot(x, np.where(sel, y, np.nan), color=color, lw=2.2, label=flag)
        else:
            ax.plot(x[sel], y[sel], ls="none", marker="o", ms=5, color=color, label=flag)
    if pace.wpm:
        ax.axhline(pace.wpm, color="#333", ls="--", lw=0.8, label=f"overall {pace.wpm:.0f}")
    ax.set_ylabel("words / min")
    ax.set_ylim(0, max(float(y.max(initial=0)) * 1.15, hi * 1.25))
    _time_axis(ax, end_s)
    ax.legend(loc="lower right", bbox_to_anchor=(1, 1), fontsize=7, ncols=4, frameon=False)
    return svg_element(fig, "pace")


def pitch_chart(report: ClipReport, tracks: Tracks, end_s: float) -> str | None:
    """The pitch contour in Hz as inline SVG; None if no frame is voiced."""
    t, f0 = bucket_pitch(tracks.f0_hz)
    if not np.isfinite(f0).any():
        return None
    fig = new_figure(2.2)
    ax = fig.add_subplot()
    ax.plot(t, f0, color="#7048e8", lw=1.2)
    if report.pitch.median_hz:
        ax.axhline(report.pitch.median_hz, color="#333", ls="--", lw=0.8,
                   label=f"median {report.pitch.median_hz:.0f} Hz")  # fmt: skip
        ax.legend(loc="lower right", bbox_to_anchor=(1, 1), fontsize=7, frameon=False)
    p1, p99 = np.nanpercentile(f0, [1, 99])
    ax.set_ylim(max(0.0, p1 * 0.85), p99 * 1.15 + 1)
    ax.set_ylabel("pitch (Hz)")
    _time_axis(ax, end_s)
    return svg_element(fig, "pitch")


def _charts(report: ClipReport) -> str:
    import matplotlib as mpl

    tracks = report.tracks
    end_s = report.duration_s
    if tracks is not None:
        end_s = max(end_s, tracks.rms_db.size * HOP_S, tracks.envelope.shape[0] * HOP_S)
    parts: list[str] = []
    rc = {"svg.fonttype": "none", "svg.hashsalt": "coach", "font.size": 8}
    with mpl.rc_context(rc):
        if tracks is None:
            parts.append(
                '<p class="note">No waveform or pitch chart: the per-frame audio measurements '
                "are not stored in JSON. Score the audio file again to see them.</p>"
            )
        elif tracks.envelope.shape[0]:
            caption = "Waveform. Blue: pauses; red: long pauses; orange: fillers" + (
                " (labelled)." if len(report.fillers.items) <= MAX_LABELS else "."
            )
            parts.append(figure_html("Waveform", waveform_chart(report, tracks, end_s), caption))
        if report.pace.timeline:
            window_s = max(p.end_s - p.start_s for p in report.pace.timeline)
            caption = (
                f"Pace over a sliding {window_s:.0f} s window; green: the "
                "recommended band; red and blue: windows judged too fast or too slow."
            )
            parts.append(figure_html("Pace", pace_chart(report, end_s), caption))
        if tracks is not None and tracks.f0_hz.size:
            svg = pitch_chart(report, tracks, end_s)
            if svg:
                caption = "Pitch of voiced speech; gaps are pauses and unvoiced sounds."
                parts.append(figure_html("Pitch", svg, caption))
            else:
                parts.append('<p class="note">No pitch chart: no voiced speech was found.</p>')
    return "\n".join(parts)


def figure_html(title: str, svg: str, caption: str) -> str:
    """A titled chart: ``svg`` (from :func:`svg_element`) with its caption."""
    return (
        f"<h3>{escape(title)}</h3>\n<figure>{svg}"
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


# ---------------------------------------------------------------- page parts


def _figures_table(report: ClipReport) -> str:
    rows = [
        f'<tr class="{"warn" if f.flagged else "ok"}"><th>{escape(f.label)}</th>'
        f'<td class="value">{escape(f.value)}</td><td>{escape(f.detail)}</td></tr>'
        for f in figures(report)
    ]
    return '<table class="figures">\n' + "\n".join(rows) + "\n</table>"


def _tips(report: ClipReport, player: str | None = None) -> str:
    """The tips; with ``player`` (a listening section's id) a tip's time is a link that
    plays its moment there."""
    tips = tip_lines(report)
    if not tips:
        return '<p class="note">Nothing stands out: every figure is within its target.</p>'
    items = []
    for (msg, at), tip in zip(tips, report.tips, strict=True):
        if at and player and tip.at_s is not None:
            when = (
                f' <a class="at" href="#{escape(player)}" data-player="{escape(player)}" '
                f'data-t="{tip.at_s:.2f}" data-what="the tip on {escape(tip.area)}">'
                f"at {escape(at)} &#9654;</a>"
            )
        else:
            when = f' <span class="at">at {escape(at)}</span>' if at else ""
        items.append(f"<li>{escape(msg)}{when}</li>")
    return '<ol class="tips">\n' + "\n".join(items) + "\n</ol>"


def clip_page(
    report: ClipReport,
    *,
    index_href: str | None = None,
    sections: Sequence[tuple[str, str]] = (),
    title: str | None = None,
    audio_src: str | None = None,
) -> str:
    """The self-contained HTML page of one clip.

    Args:
        report: the clip; its ``tracks`` (if any) give the waveform and pitch charts.
        index_href: link back to the batch index page, or None for a single clip.
        sections: more ``(heading, html)`` sections, placed after the charts.
        title: the page heading (default: the clip's file).
        audio_src: the recording's URL for the listening section: a ``data:`` URI (see
            :func:`coach.render.listen.audio_data_uri`) or a path relative to the page;
            None: no recording (the moments and transcript are still shown).
    """

    body = []
    if index_href:
        body.append(f'<p class="nav"><a href="{escape(index_href)}">&larr; all clips</a></p>')
    body.append(f"<h1>{escape(title or report.file)}</h1>")
    if report.error is not None:
        body.append(f'<p class="error">{escape(error_line(report))}</p>')
        return document(f"coach: {report.file}", "\n".join(body))
    meta = [f"Length {duration(report.duration_s)}", f"{report.word_count} words"]
    if report.asr_model:
        meta.append(f"model {report.asr_model}")
    body.append(f'<p class="meta">{escape(" · ".join(meta))}</p>')
    body.append("<h2>Figures</h2>\n" + _figures_table(report))
    body.append("<h2>Tips</h2>\n" + _tips(report, player="listen"))
    body.append("<h2>Listen: the moments and the transcript</h2>")
    body.append(listen_html(report, src=audio_src, pid="listen"))
    body.append("<h2>Charts</h2>\n" + _charts(report))
    body += [f"<h2>{escape(heading)}</h2>\n{html_text}" for heading, html_text in sections]
    return document(f"coach: {report.file}", "\n".join(body))


def index_page(reports: Sequence[ClipReport], hrefs: Sequence[str]) -> str:
    """The batch index: a summary table with one linked row per clip.

    Args:
        reports: the clips.
        hrefs: relative link to each clip's page, same order.
    """
    head = "".join(f"<th>{escape(h)}</th>" for h in (*SUMMARY_HEADERS, "Top tip"))
    rows = []
    for r, href in zip(reports, hrefs, strict=True):
        cells = summary_row(r)
        link = f'<td><a href="{escape(href)}">{escape(cells[0])}</a></td>'
        if r.error is not None:
            span = len(SUMMARY_HEADERS)
            rows.append(f'<tr>{link}<td colspan="{span}" class="error">{escape(r.error)}</td></tr>')
            continue
        nums = "".join(f'<td class="num">{escape(c)}</td>' for c in cells[1:])
        top = escape(r.tips[0].message) if r.tips else ""
        rows.append(f"<tr>{link}{nums}<td>{top}</td></tr>")
    n_err = sum(r.error is not None for r in reports)
    meta = f"{len(reports)} clips" + (f", {n_err} not scored" if n_err else "")
    body = (
        f'<h1>coach report</h1>\n<p class="meta">{escape(meta)}</p>\n'
        f"<table>\n<tr>{head}</tr>\n" + "\n".join(rows) + "\n</table>"
    )
    return document("coach report", body)


# ---------------------------------------------------------------- files


def _page_names(reports: Sequence[ClipReport]) -> list[str]:
    """A distinct file name per clip from its file stem (case-insensitively distinct)."""
    taken = {"index"}
    names = []
    for r in reports:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(r.file).stem).strip("._") or "clip"
        name, n = stem, 2
        while name.lower() in taken:
            name, n = f"{stem}-{n}", n + 1
        taken.add(name.lower())
        names.append(name + ".html")
    return names


def _embedded(report: ClipReport, embed_audio: bool) -> str | None:
    """The clip's recording as a data URI, if wanted and readable."""
    if not embed_audio or report.error is not None or not Path(report.file).is_file():
        return None

    return audio_data_uri(report.file)


def write_html(
    reports: Sequence[ClipReport], out_path: Path, *, embed_audio: bool = True
) -> list[Path]:
    """Write the HTML report.

    One report and an ``out_path`` ending in ".html": that one page. Otherwise ``out_path``
    is a folder (created if needed) that gets one page per clip, named from the clip's file
    stem and made unique, plus ``index.html`` linking them all.

    Args:
        reports: the clips.
        out_path: the page to write, or the folder to write into.
        embed_audio: embed each clip's recording (Opus, about 0.2 MB a minute) so the page
            plays its moments; a clip whose file cannot be read gets a page without it.

    Returns:
        The paths written: clip pages in input order, then the index if any.
    """
    out_path = Path(out_path)
    if len(reports) == 1 and out_path.suffix.lower() == ".html":
        out_path.parent.mkdir(parents=True, exist_ok=True)
        page = clip_page(reports[0], audio_src=_embedded(reports[0], embed_audio))
        out_path.write_text(page, encoding="utf-8")
        return [out_path]
    out_path.mkdir(parents=True, exist_ok=True)
    names = _page_names(reports)
    written = []
    for r, name in zip(reports, names, strict=True):
        path = out_path / name
        page = clip_page(r, index_href="index.html", audio_src=_embedded(r, embed_audio))
        path.write_text(page, encoding="utf-8")
        written.append(path)
    index = out_path / "index.html"
    index.write_text(index_page(reports, names), encoding="utf-8")
    written.append(index)
    return written
