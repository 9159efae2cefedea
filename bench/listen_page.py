"""The listening report of a 60-minute recording: page size and open time in a browser.

A synthetic hour: the shipped practice talk repeated to 60 minutes (real speech, so the
embedded Opus is the size speech gives), with a report of 150 words a minute, a filler
every 25 words, a long pause every 50, a hedge every 150, a trail-off every 100, a
repetition every 200 and a pace stretch out of the band every two minutes (the markers
do not line up with the speech; size and speed do not depend on it). Two pages:

- clip: ``coach score -f html`` (the recording embedded as Ogg Opus);
- session: a session's report.html (the recording is talk.wav beside it).

Each page is opened in Debian's chromium (headless, through playwright) a few times: the
time until the page is shown and its script has run (the DOMContentLoaded and load
events), until the recording's length is known, and from a click on a moment to the
recording playing from two seconds before it. Figures go to bench/results/listen_page.json.

Run: ``.venv/bin/python bench/listen_page.py`` (needs chromium: ``apt install chromium``).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from results import write_results

from coach import SAMPLE_RATE, audio
from coach.analysis.disfluency import HedgeItem, RepetitionItem
from coach.analysis.fillers import FillerItem
from coach.analysis.pace import PacePoint, PaceStretch
from coach.analysis.pauses import Pause
from coach.analysis.prosody import Tracks, TrailOff
from coach.render.html import clip_page, write_html
from coach.render.listen import moments
from coach.report import ClipReport, ReportWord

ROOT = Path(__file__).resolve().parent.parent


def hour_wav(path: Path, minutes: float) -> Path:
    """The practice talk repeated to ``minutes`` minutes, written as 16 kHz wav."""
    talk = audio.load(ROOT / "audio_fixtures" / "practice_talk.wav")
    n = int(minutes * 60 * SAMPLE_RATE)
    reps = int(np.ceil(n / talk.size))
    audio.write_wav(path, np.tile(talk, reps)[:n], SAMPLE_RATE)
    return path


def hour_report(file: str, minutes: float) -> ClipReport:
    """A report with the marker counts of a talkative hour (see the module docstring)."""
    end = minutes * 60
    starts = np.arange(0.5, end - 1, 0.4)
    words = [
        ReportWord("um," if i % 25 == 0 else "word.", float(s), float(s) + 0.3, i % 25 == 0)
        for i, s in enumerate(starts)
    ]
    r = ClipReport(file=file, duration_s=end, words=words, word_count=len(words))
    r.transcript = " ".join(w.text for w in words)
    r.fillers.items = [
        FillerItem("um", w.start_s, w.end_s, "filled_pause", "transcript")
        for w in words
        if w.filler
    ]
    r.fillers.count = len(r.fillers.items)
    r.pauses.items = [
        Pause(float(s) + 0.35, float(s) + 2.0, "sentence", True) for s in starts[::50]
    ]
    r.hedges.items = [HedgeItem("i think", float(s), float(s) + 0.4) for s in starts[7::150]]
    r.energy.trail_offs = [TrailOff(float(s), float(s) + 0.6, 7.0) for s in starts[3::100]]
    r.repetitions.items = [
        RepetitionItem("the", float(s), float(s) + 0.5, "repetition") for s in starts[11::200]
    ]
    r.pace.timeline = [PacePoint(t, t + 10, 150.0, 25, None) for t in np.arange(0, end - 10, 5.0)]
    r.pace.stretches = [PaceStretch(t, t + 20, "fast", 190.0) for t in np.arange(60, end, 120.0)]
    r.pace.wpm = 150.0
    n = int(end / 0.01)
    t = np.arange(n) * 0.01
    voiced10 = (t % 0.4) < 0.3
    amp = np.where(voiced10, 0.5, 0.0)
    r.tracks = Tracks(
        f0_hz=np.where(voiced10, 120 + 20 * np.sin(t), np.nan).astype(np.float32),
        rms_db=np.where(voiced10, -20.0, -60.0).astype(np.float32),
        voiced=voiced10[::3].copy(),
        vad_frame_s=0.03,
        envelope=np.stack([-amp, amp], axis=1).astype(np.float32),
    )
    return r


_OPEN = """async () => {
  const nav = performance.getEntriesByType('navigation')[0];
  const a = document.querySelector('audio');
  const t0 = performance.now();
  if (a && a.readyState < 1)
    await new Promise(ok => a.addEventListener('loadedmetadata', ok, {once: true}));
  return {dom_ready_ms: nav.domContentLoadedEventEnd, load_ms: nav.loadEventEnd,
          metadata_ms: a ? Math.max(nav.loadEventEnd, t0) + (performance.now() - t0) : null,
          duration_s: a ? a.duration : null,
          elements: document.getElementsByTagName('*').length,
          moment_buttons: document.querySelectorAll('.track button').length};
}"""

_CLICK = """async () => {
  const a = document.querySelector('audio');
  const b = document.querySelectorAll('.track button')[5];
  const m = window.coachPlayers.listen.data.m[+b.dataset.i];
  const t0 = performance.now();
  const playing = new Promise(ok => a.addEventListener('playing', ok, {once: true}));
  b.click();
  await playing;
  return {click_to_playing_ms: performance.now() - t0, current_s: a.currentTime,
          moment_s: m[0]};
}"""


def measure(browser: Any, page_path: Path, repeats: int) -> dict[str, Any]:
    """Open the page ``repeats`` times in a fresh tab: medians of the timings."""
    runs = []
    for _ in range(repeats):
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        page = context.new_page()
        t0 = time.perf_counter()
        page.goto(page_path.as_uri(), wait_until="load", timeout=120_000)
        goto_ms = (time.perf_counter() - t0) * 1000
        run = page.evaluate(_OPEN)
        run["goto_ms"] = goto_ms
        run.update(page.evaluate(_CLICK))
        runs.append(run)
        context.close()
    out: dict[str, Any] = {"size_bytes": page_path.stat().st_size, "repeats": repeats}
    for key in ("goto_ms", "dom_ready_ms", "load_ms", "metadata_ms", "click_to_playing_ms"):
        values = [r[key] for r in runs if r[key] is not None]
        out[key] = round(statistics.median(values), 1) if values else None
    for key in ("elements", "moment_buttons", "duration_s", "current_s", "moment_s"):
        out[key] = runs[-1][key]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="keep the pages and audio in this folder")
    ap.add_argument("--no-write", action="store_true", help="do not write the results file")
    args = ap.parse_args(argv)
    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium is not installed: apt-get install chromium", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    work = args.keep or Path(tempfile.mkdtemp(prefix="coach-listen-"))
    work.mkdir(parents=True, exist_ok=True)
    session = work / "session"
    session.mkdir(exist_ok=True)
    wav = hour_wav(session / "talk.wav", args.minutes)
    report = hour_report(str(wav), args.minutes)
    figures: dict[str, Any] = {
        "minutes": args.minutes,
        "words": len(report.words),
        "moments": len(moments(report)),
        "wav_bytes": wav.stat().st_size,
    }
    t0 = time.perf_counter()
    clip = write_html([report], work / "clip.html")[0]
    figures["clip_write_s"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    (session / "report.html").write_text(
        clip_page(report, audio_src="talk.wav", title="session"), encoding="utf-8"
    )
    figures["session_write_s"] = round(time.perf_counter() - t0, 2)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium, args=["--autoplay-policy=no-user-gesture-required"]
        )
        figures["clip"] = measure(browser, clip, args.repeats)
        figures["session"] = measure(browser, session / "report.html", args.repeats)
        browser.close()
    for name in ("clip", "session"):
        f = figures[name]
        print(
            f"{name}: {f['size_bytes'] / 1e6:.2f} MB, shown (DOMContentLoaded) "
            f"{f['dom_ready_ms']:.0f} ms, load {f['load_ms']:.0f} ms, recording's length known "
            f"{f['metadata_ms']:.0f} ms, click to playing {f['click_to_playing_ms']:.0f} ms; "
            f"{f['elements']} elements, {f['moment_buttons']} moment buttons shown"
        )
    print(f"{figures['words']} words, {figures['moments']} moments; clip page written in "
          f"{figures['clip_write_s']} s (Opus encoding included)")  # fmt: skip
    if not args.no_write:
        print(write_results("listen_page", figures))
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
