"""The report you can listen to: moments, parts, the embedded recording, and the pages
checked as a user would, in a real headless browser (Debian's chromium driven by
Playwright): clicking a moment, a word or a tip plays the recording from two seconds
before it.

The browser tests skip, saying why, when chromium or the playwright package is missing
(`make setup` installs both). Set COACH_SCREENSHOTS=DIR to keep their screenshots.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from helpers import make_report

from coach import SAMPLE_RATE, audio
from coach.analysis.fillers import FillerItem
from coach.analysis.pauses import Pause
from coach.render import write_html
from coach.render.html import clip_page
from coach.render.listen import (
    LEAD_S,
    PART_S,
    audio_data_uri,
    encode_opus,
    listen_html,
    moments,
    part_of,
    parts,
    relative_src,
)
from coach.report import ReportWord

try:  # the live session's results moved from coach.session to coach.live
    from coach.live.results import Exchange, SessionResult
except ImportError:  # pragma: no cover
    from coach.session import Exchange, SessionResult  # type: ignore[no-redef]
from coach.audience import Question
from coach.render.session import session_html


def synthetic_speech(path: Path, duration_s: float = 11.0) -> Path:
    """A wav of ``duration_s`` seconds: a buzzing vowel wherever the test report has a
    word, quiet elsewhere."""
    t = np.arange(int(duration_s * SAMPLE_RATE)) / SAMPLE_RATE
    voice = np.zeros_like(t, dtype=bool)
    for w in make_report().words:
        voice |= (t >= w.start_s) & (t < w.end_s)
    tone = 0.3 * np.sin(2 * np.pi * 140 * t) + 0.1 * np.sin(2 * np.pi * 280 * t)
    samples = np.where(voice, tone, 0.001 * np.sin(2 * np.pi * 50 * t)).astype(np.float32)
    audio.write_wav(path, samples, SAMPLE_RATE)
    return path


# ---------------------------------------------------------------- no browser


def test_moments_cover_every_kind_in_time_order():
    ms = moments(make_report())
    kinds = [m.kind for m in ms]
    assert kinds.count("filler") == 4
    assert kinds.count("pause") == 1  # only the long pause
    assert {"pace", "trail", "repeat", "hedge"} <= set(kinds)
    assert [m.start_s for m in ms] == sorted(m.start_s for m in ms)
    pause = next(m for m in ms if m.kind == "pause")
    assert (pause.start_s, pause.end_s) == (3.5, 5.2)
    assert pause.label == "1.7 s pause after a sentence"
    assert any(m.label == "too slow: 96 wpm" for m in ms)


def test_parts_split_a_long_recording_into_five_minute_parts():
    assert parts(11.0) == [(0.0, 11.0)]
    assert parts(400.0) == [(0.0, 400.0)]  # under seven minutes: one part
    hour = parts(3600.0)
    assert len(hour) == 12 and hour[0] == (0.0, PART_S) and hour[-1][1] == 3600.0
    assert part_of(0.0, hour) == 0 and part_of(299.9, hour) == 0 and part_of(300.0, hour) == 1
    assert part_of(5000.0, hour) == 11


def test_listen_section_carries_moments_and_a_paged_transcript():
    section = listen_html(make_report(), src="talk.wav", pid="listen")
    assert section.count("<audio") == 1 and 'src="talk.wav"' in section
    data = json.loads(re.search(r'class="moments">(.*?)</script>', section, re.S).group(1))
    assert data["lead"] == LEAD_S and data["parts"] == [[0.0, 11.0]]
    assert len(data["m"]) == len(moments(make_report()))
    assert section.count('class="tpage"') == 1
    assert '<span data-t="1.40">want</span>' in section
    assert '<mark data-t="2.40" title="filler at 0:02">um</mark>,' in section
    assert 'role="toolbar"' in section


def test_listen_section_json_cannot_close_its_script():
    report = make_report()
    report.fillers.items = [FillerItem("</script><b>", 1.0, 1.2, "discourse", "transcript")]
    section = listen_html(report, src=None)
    assert "</script><b>" not in section
    assert section.count("</script>") == 1
    assert "No recording with this page" in section


def test_tips_link_to_their_moment():
    page = clip_page(make_report(), audio_src="x.ogg")
    assert re.search(r'<a class="at" href="#listen" data-player="listen" data-t="2\.40"', page)


def test_recording_is_embedded_as_opus(tmp_path: Path):
    wav = synthetic_speech(tmp_path / "talk.wav")
    data = encode_opus(wav)
    assert data[:4] == b"\x1a\x45\xdf\xa3" and b"webm" in data[:64]  # EBML, WebM
    assert b"A_OPUS" in data[:400] and b"\x1c\x53\xbb\x6b" in data  # Opus, with cues
    (tmp_path / "talk.webm").write_bytes(data)
    assert audio.probe(tmp_path / "talk.webm").duration_s == pytest.approx(11.0, abs=0.05)
    assert len(data) < 11 * 48_000 / 8  # a pure tone takes more than speech's 20 kbit/s
    uri = audio_data_uri(wav)
    assert uri is not None and uri.startswith("data:audio/webm;codecs=opus;base64,GkXfo")
    assert audio_data_uri(tmp_path / "missing.wav") is None


def test_write_html_embeds_the_clip_once(tmp_path: Path):
    wav = synthetic_speech(tmp_path / "rivers.wav")
    out = tmp_path / "rivers.html"
    write_html([make_report(str(wav))], out)
    page = out.read_text()
    assert page.count("data:audio/webm") == 1 and page.count("<audio") == 1
    write_html([make_report(str(wav))], tmp_path / "plain.html", embed_audio=False)
    assert "<audio" not in (tmp_path / "plain.html").read_text()


def test_relative_src_is_a_url_path():
    assert relative_src("answers/answer 1.wav") == "answers/answer%201.wav"


def hour_report():
    """A synthetic hour: a word every 0.4 s, a filler every 25 words, a long pause every
    50 words."""
    hour = 3600.0
    starts = np.arange(0.5, hour - 1, 0.4)
    words = [("word.", float(s), float(s) + 0.3, i % 25 == 0) for i, s in enumerate(starts)]
    report = make_report(transcript_words=words)
    report.words = [ReportWord(*w) for w in words]
    report.duration_s = hour
    report.tracks = None  # no waveform or pitch chart: not what these tests look at
    report.fillers.items = [
        FillerItem("um", s, e, "filled_pause", "transcript") for _w, s, e, f in words if f
    ]
    report.pauses.items = [Pause(float(s), float(s) + 2, "sentence", True) for s in starts[::50]]
    return report


def test_an_hour_is_shown_in_parts():
    section = listen_html(hour_report(), src="talk.wav")
    assert section.count('class="tpage"') == 12
    assert section.count('<button type="button" data-p=') == 12
    assert section.count("<audio") == 1


def session_result(folder: Path, *, talk: bool = True) -> SessionResult:
    """A session with the test report as its talk and one answer, wavs in ``folder``."""
    (folder / "answers").mkdir(parents=True, exist_ok=True)
    res = SessionResult(folder=folder, kind="rehearse", started="2026-11-23T15:00:00",
                        status="complete")  # fmt: skip
    if talk:
        synthetic_speech(folder / "talk.wav")
        res.talk = make_report(str(folder / "talk.wav"))
    synthetic_speech(folder / "answers" / "answer_01.wav")
    q = Question("How much did the reviews cost?", "reviews", "fallback", 0)
    res.exchanges = [
        Exchange(1, q, "answers/answer_01.wav", make_report(str(folder / "answers/answer_01.wav")))
    ]
    return res


def test_session_in_a_relative_folder_plays_its_wavs(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # coach rehearse --save s: the paths are relative
    res = session_result(Path("s"))
    res.talk.file = "s/talk.wav"
    page = session_html(res)
    assert 'src="talk.wav"' in page and 'src="answers/answer_01.wav"' in page


def test_session_page_plays_the_wavs_beside_it(tmp_path: Path):
    page = session_html(session_result(tmp_path / "s"))
    assert 'src="talk.wav"' in page and 'src="answers/answer_01.wav"' in page
    assert "data:audio" not in page
    assert page.count('<section class="listen"') == 2
    interview = session_html(session_result(tmp_path / "i", talk=False))
    assert interview.count('<section class="listen"') == 1
    assert 'id="answer-1"' in interview and "<script>" in interview


# ---------------------------------------------------------------- in a browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, allowed to play without a gesture."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install chromium; `make setup` does)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is not installed (pip install "
        "-e '.[dev]')",
    )  # fmt: skip
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, args=["--autoplay-policy=no-user-gesture-required"]
        )
        yield b
        b.close()


def _open(browser, path: Path):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri())
    page.wait_for_function(
        "[...document.querySelectorAll('audio')].every(a => a.readyState >= 1)", timeout=15000
    )
    return page, errors


def _shot(page, name: str, tmp_path: Path) -> None:
    out = Path(os.environ.get("COACH_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / name), full_page=True)


def _playing_from(page, audio_selector: str, moment_s: float) -> float:
    """currentTime just after a click: the moment minus the lead, and playing."""
    now = page.evaluate(
        "s => { const a = document.querySelector(s); return [a.currentTime, a.paused]; }",
        audio_selector,
    )
    assert now[1] is False, "the recording should be playing"
    start = max(0.0, moment_s - LEAD_S)
    assert start - 0.05 <= now[0] <= start + 0.6, now
    return now[0]


@pytest.mark.browser
def test_clip_report_in_a_browser(browser, tmp_path: Path):
    wav = synthetic_speech(tmp_path / "rivers.wav")
    report = make_report(str(wav))
    out = tmp_path / "rivers.html"
    write_html([report], out)
    page, errors = _open(browser, out)
    assert page.evaluate("document.querySelector('audio').duration") == pytest.approx(11.0, abs=0.1)

    # a click on the "uh" filler (5.90 s) plays from 3.90 s
    uh = page.locator(".track button[aria-label='filler “uh” at 0:05']")
    uh.click()
    _playing_from(page, "audio", 5.90)
    assert "Playing from 0:03: filler “uh” at 0:05" in page.locator(".now").inner_text()

    # keyboard: Right moves to the next moment in time, Enter plays it
    page.evaluate("document.querySelector('audio').pause()")
    uh.focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused == "repetition “the” at 0:06"
    page.keyboard.press("Enter")
    _playing_from(page, "audio", 6.40)
    page.keyboard.press("ArrowDown")  # the lane below: hedges, nearest in time
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "hedge “i think” at 0:08"
    )
    page.keyboard.press(" ")
    _playing_from(page, "audio", 8.60)

    # a transcript word, then a tip's link
    page.evaluate("document.querySelector('audio').pause()")
    page.locator(".transcript span[data-t='9.60']").click()
    _playing_from(page, "audio", 9.60)
    page.evaluate("document.querySelector('audio').pause()")
    page.locator("a.at").first.click()
    _playing_from(page, "audio", 2.40)
    assert "the tip on fillers at 0:02" in page.locator(".now").inner_text()

    page.evaluate("const a = document.querySelector('audio'); a.pause(); a.currentTime = 5.5")
    page.wait_for_timeout(200)
    _shot(page, "clip_report.png", tmp_path)
    assert errors == []


@pytest.mark.browser
def test_session_report_in_a_browser(browser, tmp_path: Path):
    folder = tmp_path / "session"
    (folder / "report.html").parent.mkdir(parents=True, exist_ok=True)
    (folder / "report.html").write_text(session_html(session_result(folder)), encoding="utf-8")
    page, errors = _open(browser, folder / "report.html")
    src = page.evaluate("document.querySelector('#listen audio').currentSrc")
    assert src.endswith("/session/talk.wav")

    page.locator("#listen .track button[aria-label='filler “you know” at 0:07']").click()
    _playing_from(page, "#listen audio", 7.40)

    # the answer's own player plays its own wav
    page.evaluate("document.querySelector('#listen audio').pause()")
    answer = page.locator("#answer-1 .track button").first
    answer.scroll_into_view_if_needed()
    answer.click()
    i = int(answer.get_attribute("data-i"))
    moment = page.evaluate(f"window.coachPlayers['answer-1'].data.m[{i}][0]")
    assert moment == 2.4  # the first filler, "um"
    _playing_from(page, "#answer-1 audio", moment)
    assert page.evaluate("document.querySelector('#answer-1 audio').currentSrc").endswith(
        "/session/answers/answer_01.wav"
    )
    assert page.evaluate("document.querySelector('#listen audio').paused") is True
    page.evaluate("document.querySelector('#answer-1 audio').pause()")
    _shot(page, "session_report.png", tmp_path)
    assert errors == []


@pytest.mark.browser
def test_an_hour_opens_in_parts_in_a_browser(browser, tmp_path: Path):
    out = tmp_path / "hour.html"
    out.write_text(clip_page(hour_report(), audio_src=None), encoding="utf-8")
    page, errors = _open(browser, out)
    shown = page.locator(".track button").count()
    assert 0 < shown < 200  # one part's moments, not the hour's
    assert page.locator(".tpage.on").count() == 1
    # moving past the last moment of the part turns to the next part
    page.locator(".track button").last.focus()
    last = page.evaluate("+document.activeElement.dataset.i")
    page.keyboard.press("End")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("+document.activeElement.dataset.i") > last
    assert page.locator(".parts button[aria-current=true]").inner_text() == "5:00–10:00"
    assert errors == []


@pytest.mark.browser
def test_playback_turns_the_part(browser, tmp_path: Path):
    folder = tmp_path / "hour"
    folder.mkdir()
    t = np.arange(int(305 * SAMPLE_RATE)) / SAMPLE_RATE  # enough audio for the first parts
    audio.write_wav(folder / "talk.wav", (0.2 * np.sin(2 * np.pi * 140 * t)).astype(np.float32),
                    SAMPLE_RATE)  # fmt: skip
    (folder / "report.html").write_text(
        clip_page(hour_report(), audio_src="talk.wav"), encoding="utf-8"
    )
    page, errors = _open(browser, folder / "report.html")
    current = "document.querySelector('.parts button[aria-current=true]').textContent"
    page.locator(".parts button", has_text="5:00–10:00").click()
    # the part's first moment (300.5 s) plays from 298.5 s: the part stays
    page.locator(".track button[aria-label='filler “um” at 5:00']").click()
    _playing_from(page, "audio", 300.5)
    page.wait_for_function("document.querySelector('audio').currentTime > 299.2")
    assert page.evaluate(current) == "5:00–10:00"
    # played from the end of the first part, the next one is shown when it is reached
    page.evaluate("const a = document.querySelector('audio'); a.pause(); a.currentTime = 10")
    page.locator(".parts button", has_text="0:00–5:00").click()
    page.evaluate("const a = document.querySelector('audio'); a.currentTime = 299.5; a.play()")
    page.wait_for_function(f"{current} === '5:00–10:00'", timeout=5000)
    assert errors == []
