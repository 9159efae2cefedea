"""A report you can listen to: the recording, one timeline of moments under it, and the
transcript, each moment and word playing the recording from two seconds before it.

The moments are every filler, long pause, stretch of pace out of the band, trail-off,
repetition and hedge of a clip. The page stays light for an hour-long recording: the
recording is one ``<audio>`` element (embedded once as WebM Opus for a clip, or the session's
own wav beside the page), and the timeline and the transcript are shown one part (five
minutes) at a time: the moment buttons of a part are made when it is shown, and the
transcript's other parts are not laid out (``display: none``). No external script, style
sheet or font; without JavaScript the whole transcript is shown and nothing plays.

Keyboard: the moments are buttons in one tab stop (a toolbar); Left and Right move to the
previous and next moment (across parts), Up and Down to the nearest moment in the lane
above or below, Home and End to the first and last of the part; Enter or Space plays.
"""

from __future__ import annotations

import base64
import bisect
import html
import io
import json
import logging
import math
import os
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coach import SAMPLE_RATE
from coach.render.common import chunks, clock, paragraphs
from coach.report import ClipReport

logger = logging.getLogger(__name__)

LEAD_S = 2.0
"""A moment plays from this many seconds before it, so it is heard in its context."""

PART_S = 300.0
"""Length of one part of the timeline and transcript, seconds."""

ONE_PART_MAX_S = 420.0
"""A recording up to this long (s) is shown as one part."""

OPUS_BITRATE = 24_000
"""Bit rate of the embedded recording, bit/s: wideband Opus for speech (about 10 MB an
hour as base64; a minute is about 0.2 MB)."""

KINDS: tuple[tuple[str, str, str], ...] = (
    ("filler", "Fillers", "#f08c00"),
    ("pause", "Long pauses", "#e03131"),
    ("pace", "Pace out of band", "linear-gradient(90deg,#d9480f 50%,#1c7ed6 50%)"),
    ("trail", "Trail-offs", "#7048e8"),
    ("repeat", "Repetitions", "#2f9e44"),
    ("hedge", "Hedges", "#c2255c"),
)
"""(kind, lane title, colour) of each lane of the timeline, top to bottom (pace: fast
stretches red, slow ones blue, as in the pace chart)."""


@dataclass(frozen=True)
class Moment:
    """One marker on the timeline."""

    start_s: float
    """Start, seconds."""
    end_s: float
    """End, seconds."""
    kind: str
    """One of :data:`KINDS`' kinds."""
    label: str
    """What happened, for the button's name ("filler "um"")."""
    flag: str = ""
    """"fast" or "slow" for a pace stretch (its colour), else ""."""


_PAUSE_PLACES = {
    "sentence": "after a sentence",
    "clause": "at a clause break",
    "within_clause": "within a clause",
}


def moments(report: ClipReport) -> list[Moment]:
    """Every moment of a clip worth hearing, in time order."""
    out: list[Moment] = []
    for f in report.fillers.items:
        out.append(Moment(f.start_s, f.end_s, "filler", f"filler “{f.text}”"))
    for p in report.pauses.items:
        if p.long:
            where = _PAUSE_PLACES.get(p.position, p.position.replace("_", " "))
            out.append(Moment(p.start_s, p.end_s, "pause", f"{p.duration_s:.1f} s pause {where}"))
    for s in report.pace.stretches:
        out.append(Moment(s.start_s, s.end_s, "pace", f"too {s.flag}: {s.wpm:.0f} wpm", s.flag))
    for t in report.energy.trail_offs:
        out.append(Moment(t.start_s, t.end_s, "trail", f"trailed off ({t.drop_db:.0f} dB quieter)"))
    for r in report.repetitions.items:
        out.append(Moment(r.start_s, r.end_s, "repeat", f"{r.kind} “{r.text}”"))
    for h in report.hedges.items:
        out.append(Moment(h.start_s, h.end_s, "hedge", f"hedge “{h.text}”"))
    order = {k: i for i, (k, _t, _c) in enumerate(KINDS)}
    return sorted(out, key=lambda m: (m.start_s, order[m.kind]))


def parts(duration_s: float) -> list[tuple[float, float]]:
    """The parts the timeline and transcript are shown in: (start, end) in seconds.

    Args:
        duration_s: length of the recording, seconds.
    """
    end = max(duration_s, 1e-3)
    if end <= ONE_PART_MAX_S:
        return [(0.0, end)]
    n = int(np.ceil(end / PART_S))
    return [(i * PART_S, min((i + 1) * PART_S, end)) for i in range(n)]


def part_of(t_s: float, bounds: list[tuple[float, float]]) -> int:
    """Index of the part holding time ``t_s`` (seconds; the last part past the end)."""
    for i, (_a, b) in enumerate(bounds):
        if t_s < b:
            return i
    return len(bounds) - 1


# ---------------------------------------------------------------- the recording


def encode_opus(path: str | os.PathLike[str], *, bitrate: int = OPUS_BITRATE) -> bytes:
    """The recording as Opus in WebM (with cues, so a browser seeks at once), mono 16 kHz,
    decoded block by block (never whole). WebM rather than Ogg: Safari has played WebM
    Opus for longer.

    The audio is decoded exactly as :mod:`coach.score` decodes it, so the report's times
    are the recording's times.

    Args:
        path: any file FFmpeg reads.
        bitrate: target bit rate, bit/s (6000-510000).

    Raises:
        AudioError: the file cannot be decoded.
    """
    import av

    from coach import audio

    buf = io.BytesIO()
    with av.open(buf, "w", format="webm") as out:
        stream = out.add_stream("libopus", rate=SAMPLE_RATE, layout="mono")
        stream.bit_rate = bitrate
        stream.options = {"application": "voip"}
        pts = 0
        for block in audio.iter_blocks(path, block_s=30.0):
            frame = av.AudioFrame.from_ndarray(
                np.ascontiguousarray(block, np.float32)[None, :], format="flt", layout="mono"
            )
            frame.sample_rate = SAMPLE_RATE
            frame.pts = pts
            pts += block.size
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return buf.getvalue()


def audio_data_uri(path: str | os.PathLike[str], *, bitrate: int = OPUS_BITRATE) -> str | None:
    """The recording as a ``data:`` URI to embed in a page, or None (with a warning in the
    log) if the file cannot be read or encoded."""
    from coach.errors import CoachError

    try:
        data = encode_opus(path, bitrate=bitrate)
    except (CoachError, OSError, ValueError) as exc:
        logger.warning("%s: recording not embedded in the page (%s)", path, exc)
        return None
    except Exception as exc:  # PyAV raises its own errors (av.error.FFmpegError...)
        logger.warning("%s: recording not embedded in the page (%s)", path, exc)
        return None
    if not data:
        return None
    return "data:audio/webm;codecs=opus;base64," + base64.b64encode(data).decode("ascii")


def relative_src(path: str | os.PathLike[str]) -> str:
    """A relative file path as a URL for ``src`` ("answers/answer 1.wav" ->
    "answers/answer%201.wav")."""
    return urllib.parse.quote(Path(path).as_posix())


# ---------------------------------------------------------------- the section


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _json_for_script(obj: object) -> str:
    """JSON safe inside <script>: no "</" can close the element."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def transcript_html(report: ClipReport, bounds: Sequence[tuple[float, float]] = ()) -> str:
    """The transcript as HTML paragraphs: each opens with its time (a button), fillers are
    <mark>ed, long pauses are shown with their length in seconds, and every word carries
    its start time (``data-t``, seconds) to be played from.

    Args:
        report: the clip.
        bounds: the parts of the listening section ((start, end) seconds): paragraphs are
            grouped into one ``<div class="tpage">`` per part, by their first word's
            start. Empty: one group.
    """
    bounds = list(bounds) or [(0.0, math.inf)]
    if not report.words:
        text = f"<p>{_e(report.transcript)}</p>" if report.transcript else ""
        return "\n".join(
            f'<div class="tpage" data-p="{i}">{text if i == 0 else ""}</div>'
            for i in range(len(bounds))
        )
    long_pauses = [p for p in report.pauses.items if p.long]
    mids = [(p.start_s + p.end_s) / 2 for p in long_pauses]
    starts = [w.start_s for w in report.words]
    pause_before: dict[int, float] = {}
    for p, mid in zip(long_pauses, mids, strict=True):
        i = bisect.bisect_left(starts, mid)
        if 0 < i < len(starts):
            pause_before[i] = pause_before.get(i, 0.0) + p.duration_s
    pages: list[list[str]] = [[] for _ in bounds]
    ends = [b for _a, b in bounds]
    index = 0
    for para in paragraphs(report.words):
        t0 = para[0].start_s
        parts = [f'<button type="button" class="t" data-t="{t0:.2f}">{clock(t0)}</button>']
        for c in chunks(para):
            pause = sum(pause_before.get(i, 0.0) for i in range(index, index + c.words))
            if pause:
                parts.append(f'<span class="pause">[{pause:.1f} s]</span>')
            t = f'data-t="{c.start_s:.2f}"'
            if c.filler:
                title = f"filler at {clock(c.start_s)}"
                parts.append(
                    f'{_e(c.lead)}<mark {t} title="{title}">{_e(c.text)}</mark>{_e(c.trail)}'
                )
            else:
                parts.append(f"<span {t}>{_e(c.lead + c.text + c.trail)}</span>")
            index += c.words
        page = min(bisect.bisect_right(ends, t0), len(bounds) - 1)
        pages[page].append("<p>" + " ".join(parts) + "</p>")
    return "\n".join(
        f'<div class="tpage" data-p="{i}">\n' + "\n".join(page) + "\n</div>"
        for i, page in enumerate(pages)
    )


def listen_html(report: ClipReport, *, src: str | None, pid: str = "listen") -> str:
    """The listening section of a clip: audio, part buttons, timeline and transcript.

    Args:
        report: the scored clip.
        src: the recording's URL (a ``data:`` URI or a path relative to the page), or None
            when there is none (the moments and transcript are still shown).
        pid: the section's element id, distinct per page; tip links name it.
    """
    marks = moments(report)
    bounds = parts(report.duration_s)
    kinds_present = [k for k in KINDS if any(m.kind == k[0] for m in marks)]
    lane_index = {k[0]: i for i, k in enumerate(kinds_present)}
    data = {
        "dur": round(report.duration_s, 3),
        "parts": [[round(a, 3), round(b, 3)] for a, b in bounds],
        "lead": LEAD_S,
        "m": [
            [round(m.start_s, 2), round(max(m.end_s, m.start_s), 2), lane_index[m.kind], m.label]
            + ([m.flag] if m.flag else [])
            for m in marks
        ],
    }
    out = [f'<section class="listen" id="{_e(pid)}" aria-label="Listen to the recording">']
    if src:
        out.append(f'<audio controls preload="metadata" src="{_e(src)}"></audio>')
    else:
        out.append(
            '<p class="note">No recording with this page: the moments and the transcript are '
            "shown, but nothing plays.</p>"
        )
    out.append('<p class="now" aria-live="polite"></p>')
    if len(bounds) > 1:
        buttons = "".join(
            f'<button type="button" data-p="{i}">{clock(a)}–{clock(b)}</button>'
            for i, (a, b) in enumerate(bounds)
        )
        out.append(f'<div class="parts" role="group" aria-label="Part of the recording">'
                   f"{buttons}</div>")  # fmt: skip
    if marks:
        lanes = []
        for kind, title, colour in kinds_present:
            n = sum(m.kind == kind for m in marks)
            lanes.append(
                f'<div class="lane" style="--c:{colour}"><span class="lane-name">{_e(title)} '
                f'<span class="n">{n}</span></span><div class="track" data-k="{kind}"></div></div>'
            )
        out.append(
            '<div class="timeline" role="toolbar" aria-label="Moments: arrow keys move, Enter '
            'plays from two seconds before">' + "".join(lanes)
            + '<div class="axis" aria-hidden="true"></div>'
            '<div class="playhead" aria-hidden="true"></div></div>'
        )  # fmt: skip
        out.append(
            '<p class="hint">Click a moment or a word to hear it from two seconds before; '
            "in the timeline, arrow keys move between moments and Enter plays.</p>"
        )
    else:
        out.append('<p class="note">No fillers, long pauses, pace stretches, trail-offs, '
                   "repetitions or hedges to mark.</p>")  # fmt: skip
    out.append('<div class="transcript" tabindex="0" aria-label="Transcript">')
    out.append(transcript_html(report, bounds=bounds))
    out.append("</div>")
    out.append(f'<script type="application/json" class="moments">{_json_for_script(data)}</script>')
    out.append("</section>")
    return "\n".join(out)


LISTEN_CSS = """
.listen{background:#fff;border:1px solid #e3e3e3;padding:.6em .8em;margin:.5em 0 1em}
.listen audio{width:100%;display:block}
.listen .now{min-height:1.4em;margin:.3em 0;color:#333;font-size:.9em}
.listen .hint{color:#777;font-size:.8em;margin:.2em 0 .6em}
.parts{display:flex;flex-wrap:wrap;gap:.3em;margin:.3em 0}
.parts button{font:inherit;font-size:.8em;padding:.1em .5em;border:1px solid #bbb;
  background:#f6f6f6;border-radius:3px;cursor:pointer;font-variant-numeric:tabular-nums}
.parts button[aria-current=true]{background:#2a5db0;color:#fff;border-color:#2a5db0}
.timeline{position:relative;margin:.4em 0 0;--lane:11.5em}
.lane{display:flex;align-items:center;height:24px}
.lane-name{flex:0 0 var(--lane);font-size:.8em;color:#444;white-space:nowrap;overflow:hidden}
.lane-name .n{color:#999}
.lane-name::before{content:"";display:inline-block;width:.7em;height:.7em;border-radius:2px;
  background:var(--c);margin-right:.4em}
.track{position:relative;flex:1;height:18px;background:#f2f3f5;border-radius:3px}
.track button{position:absolute;top:2px;height:14px;min-width:8px;padding:0;margin:0;
  border:1px solid #fff;border-radius:4px;background:var(--c);opacity:.9;cursor:pointer}
.track button.fast{background:#d9480f}
.track button.slow{background:#1c7ed6}
.track button:hover{opacity:1;transform:scaleY(1.25)}
.track button:focus-visible{outline:3px solid #111;outline-offset:1px;z-index:3}
.track button.cur{box-shadow:0 0 0 2px #111;z-index:2}
.axis{position:relative;margin-left:var(--lane);height:1.4em;font-size:.72em;color:#777}
.axis span{position:absolute;top:.2em;transform:translateX(-50%);
  font-variant-numeric:tabular-nums}
.axis span::before{content:"";position:absolute;left:50%;top:-.35em;height:.3em;
  border-left:1px solid #bbb}
.playhead{position:absolute;top:0;bottom:1.4em;width:2px;background:#111;left:var(--lane);
  pointer-events:none;display:none}
.listen .transcript{max-height:22em;overflow:auto;border-top:1px solid #eee;margin-top:.4em}
.js .tpage{display:none}
.js .tpage.on{display:block}
:root:not(.js) .timeline,:root:not(.js) .parts,:root:not(.js) .hint{display:none}
.transcript [data-t]{cursor:pointer}
.transcript span[data-t]:hover,.transcript mark[data-t]:hover{text-decoration:underline}
.transcript .cur{background:#cfe2ff;border-radius:2px}
.transcript button.t{font:inherit;font-size:.85em;color:#2a5db0;background:none;border:0;
  padding:0;margin-right:.5em;cursor:pointer;font-variant-numeric:tabular-nums}
a.at{white-space:nowrap}
details.answer{margin:.4em 0}
details.answer summary{cursor:pointer;font-weight:600;padding:.2em 0}
"""

# The script is written for any current browser, without modules or build step.
LISTEN_JS = r"""
(function () {
  "use strict";
  function clock(t) {
    t = Math.max(0, Math.floor(t));
    var h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), s = t % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (h) return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
    return m + ":" + ss;
  }
  var STEPS = [5, 10, 15, 30, 60, 120, 300, 600];
  var players = {};
  var first = null;

  function Player(root) {
    var self = this;
    this.root = root;
    this.data = JSON.parse(root.querySelector("script.moments").textContent);
    this.audio = root.querySelector("audio");
    this.now = root.querySelector(".now");
    this.tracks = root.querySelectorAll(".track");
    this.axis = root.querySelector(".axis");
    this.head = root.querySelector(".playhead");
    this.partButtons = root.querySelectorAll(".parts button");
    this.tpages = root.querySelectorAll(".tpage");
    this.box = root.querySelector(".transcript");
    this.part = -1;
    this.buttons = [];
    this.words = [];
    this.wordTimes = [];
    this.curWord = null;
    this.curMark = -1;
    this.show(0);
    root.addEventListener("click", function (ev) {
      var b = ev.target.closest("[data-p]");
      if (b && b.parentNode.classList.contains("parts")) {
        self.show(+b.getAttribute("data-p"));
        return;
      }
      var mk = ev.target.closest(".track button");
      if (mk) {
        self.playMark(+mk.getAttribute("data-i"));
        return;
      }
      var w = ev.target.closest(".transcript [data-t]");
      if (w) self.play(+w.getAttribute("data-t"), "“" + w.textContent.trim() + "”");
    });
    var tl = root.querySelector(".timeline");
    if (tl) tl.addEventListener("keydown", function (ev) { self.key(ev); });
    if (this.audio) {
      this.audio.addEventListener("timeupdate", function () { self.tick(); });
      this.audio.addEventListener("seeked", function () { self.tick(); });
    }
  }

  Player.prototype.partOf = function (t) {
    var p = this.data.parts;
    for (var i = 0; i < p.length; i++) if (t < p[i][1]) return i;
    return p.length - 1;
  };

  Player.prototype.show = function (i) {
    if (i === this.part) return;
    this.part = i;
    var a = this.data.parts[i][0], b = this.data.parts[i][1], span = Math.max(b - a, 1e-3);
    var m = this.data.m, k, j;
    for (k = 0; k < this.partButtons.length; k++)
      this.partButtons[k].setAttribute("aria-current", k === i ? "true" : "false");
    for (k = 0; k < this.tpages.length; k++) this.tpages[k].classList.toggle("on", k === i);
    this.buttons = [];
    var frags = [];
    for (k = 0; k < this.tracks.length; k++) {
      this.tracks[k].textContent = "";
      frags.push(document.createDocumentFragment());
    }
    for (j = 0; j < m.length; j++) {
      var t0 = m[j][0], t1 = m[j][1];
      if ((t1 <= a && t0 < a) || t0 >= b) continue;
      var x0 = Math.max(t0, a), x1 = Math.min(Math.max(t1, t0), b);
      var btn = document.createElement("button");
      btn.type = "button";
      btn.tabIndex = -1;
      btn.setAttribute("data-i", j);
      btn.style.left = ((x0 - a) / span) * 100 + "%";
      btn.style.width = ((x1 - x0) / span) * 100 + "%";
      if (m[j][4]) btn.className = m[j][4];
      var name = m[j][3] + " at " + clock(t0);
      btn.setAttribute("aria-label", name);
      btn.title = name;
      frags[m[j][2]].appendChild(btn);
      this.buttons.push(btn);
    }
    for (k = 0; k < this.tracks.length; k++) this.tracks[k].appendChild(frags[k]);
    if (this.buttons.length) this.buttons[0].tabIndex = 0;
    if (this.axis) {
      this.axis.textContent = "";
      var step = 3600;
      for (k = 0; k < STEPS.length; k++) if (span / STEPS[k] <= 10) { step = STEPS[k]; break; }
      for (var t = Math.ceil(a / step) * step; t <= b + 1e-6; t += step) {
        var s = document.createElement("span");
        s.style.left = ((t - a) / span) * 100 + "%";
        s.textContent = clock(t);
        this.axis.appendChild(s);
      }
    }
    var page = this.tpages[i];
    this.words = page ? Array.prototype.slice.call(page.querySelectorAll("[data-t]")) : [];
    this.wordTimes = this.words.map(function (w) { return +w.getAttribute("data-t"); });
    this.tick();
  };

  Player.prototype.play = function (t, what) {
    var at = Math.max(0, t - this.data.lead);
    this.show(this.partOf(t));
    if (!this.audio) {
      this.now.textContent = "No recording on this page (" + what + " at " + clock(t) + ").";
      return;
    }
    this.audio.currentTime = at;
    var p = this.audio.play();
    if (p && p.catch) p.catch(function () {});
    this.now.textContent = "Playing from " + clock(at) + ": " + what + " at " + clock(t) + ".";
  };

  Player.prototype.playMark = function (j) {
    var m = this.data.m[j];
    this.play(m[0], m[3]);
    this.focusMark(j, false);
  };

  Player.prototype.buttonOf = function (j) {
    for (var k = 0; k < this.buttons.length; k++)
      if (+this.buttons[k].getAttribute("data-i") === j) return this.buttons[k];
    return null;
  };

  Player.prototype.focusMark = function (j, focus) {
    var m = this.data.m;
    if (j < 0 || j >= m.length) return;
    if (!this.buttonOf(j)) this.show(this.partOf(m[j][0]));
    var btn = this.buttonOf(j);
    if (!btn) return;
    for (var k = 0; k < this.buttons.length; k++) {
      this.buttons[k].tabIndex = -1;
      this.buttons[k].classList.remove("cur");
    }
    btn.tabIndex = 0;
    btn.classList.add("cur");
    this.curMark = j;
    if (focus) btn.focus();
  };

  Player.prototype.key = function (ev) {
    var btn = ev.target.closest(".track button");
    if (!btn) return;
    var j = +btn.getAttribute("data-i"), m = this.data.m, n = -1, k;
    if (ev.key === "ArrowRight") n = Math.min(j + 1, m.length - 1);
    else if (ev.key === "ArrowLeft") n = Math.max(j - 1, 0);
    else if (ev.key === "Home") n = +this.buttons[0].getAttribute("data-i");
    else if (ev.key === "End") n = +this.buttons[this.buttons.length - 1].getAttribute("data-i");
    else if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
      var lane = m[j][2] + (ev.key === "ArrowUp" ? -1 : 1), best = Infinity;
      for (k = 0; k < m.length; k++) {
        var d = Math.abs(m[k][0] - m[j][0]);
        if (m[k][2] === lane && d < best) { best = d; n = k; }
      }
      if (n < 0) n = j;
    } else return;
    ev.preventDefault();
    this.focusMark(n, true);
  };

  Player.prototype.tick = function () {
    if (!this.audio) return;
    var t = this.audio.currentTime, p = this.data.parts[this.part];
    // a moment just after the part's start plays from before it: that is still this part
    var outside = t >= p[1] || t < p[0] - this.data.lead - 0.25;
    if (!this.audio.paused && outside && t < this.data.dur) {
      // playback turns the part; a focused moment button is replaced, so the focus moves
      // to the new part's first moment (keyboard users stay in the timeline)
      var active = document.activeElement;
      var inTimeline = active && this.root.contains(active) && active.closest(".timeline");
      this.show(this.partOf(t));
      if (inTimeline && this.buttons.length) this.buttons[0].focus();
      return;
    }
    p = this.data.parts[this.part];
    if (this.head) {
      var inside = t >= p[0] && t <= p[1] && (t > 0 || !this.audio.paused);
      this.head.style.display = inside ? "block" : "none";
      var frac = (t - p[0]) / Math.max(p[1] - p[0], 1e-3);
      this.head.style.left = "calc(var(--lane) + (100% - var(--lane)) * " + frac.toFixed(5) + ")";
    }
    var lo = 0, hi = this.wordTimes.length - 1, at = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (this.wordTimes[mid] <= t) { at = mid; lo = mid + 1; } else hi = mid - 1;
    }
    var w = at >= 0 && (t > 0 || !this.audio.paused) ? this.words[at] : null;
    if (w === this.curWord) return;
    if (this.curWord) this.curWord.classList.remove("cur");
    this.curWord = w;
    if (!w) return;
    w.classList.add("cur");
    if (!this.audio.paused && this.box) {
      var top = w.offsetTop - this.box.offsetTop;
      if (top < this.box.scrollTop || top > this.box.scrollTop + this.box.clientHeight - 30)
        this.box.scrollTop = Math.max(0, top - this.box.clientHeight / 3);
    }
  };

  function init() {
    var roots = document.querySelectorAll("section.listen");
    for (var i = 0; i < roots.length; i++) {
      var pl = new Player(roots[i]);
      players[roots[i].id] = pl;
      if (!first) first = pl;
    }
    document.addEventListener("click", function (ev) {
      var a = ev.target.closest("a[data-t]");
      if (!a) return;
      var pl = players[a.getAttribute("data-player")] || first;
      if (!pl) return;
      ev.preventDefault();
      pl.root.scrollIntoView({ block: "start" });
      pl.play(+a.getAttribute("data-t"), a.getAttribute("data-what") || "the moment");
    });
    window.coachPlayers = players;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
"""
