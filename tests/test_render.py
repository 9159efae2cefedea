"""Renderings of hand-built clip reports: no models, no audio files."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from helpers import error_report, make_report, synthetic_tracks

from coach.analysis.fillers import FillerItem
from coach.analysis.pauses import Pause
from coach.errors import OptionsError
from coach.render import FORMATS, print_reports, render, write_html
from coach.render.html import bucket_envelope, bucket_pitch, clip_page
from coach.report import HEADLINE_COLUMNS, ClipReport

# ---------------------------------------------------------------- json


def test_json_one_clip_round_trips_with_the_schema_keys():
    report = make_report()
    text = render([report], "json")
    assert text.startswith("{\n")  # pretty-printed
    data = json.loads(text)
    keys = ("file", "duration_s", "transcript", "word_count", "words", "pace", "pauses",
            "fillers", "pitch", "energy", "repetitions", "hedges", "tips", "error")  # fmt: skip
    assert set(keys) <= data.keys()
    assert {"wpm", "articulation_wpm", "timeline"} <= data["pace"].keys()
    assert {"count", "long_count", "threshold_s", "long_threshold_s", "items"} <= data[
        "pauses"
    ].keys()
    assert {"count", "per_minute", "filled_pauses", "discourse", "items"} <= data["fillers"].keys()
    assert data["pace"]["wpm"] == 97.2
    assert data["pace"]["band_wpm"] == [100.0, 165.0]
    assert data["fillers"]["filled_pauses"] == {"um": 2, "uh": 1}
    assert data["words"][0] == {
        "text": "So,", "start_s": 0.5, "end_s": 0.8, "filler": True, "probability": 1.0,
    }  # fmt: skip
    assert data["tips"][1]["at_s"] is None
    assert data["timings_s"]["asr_s"] == 1.25  # numpy scalar converted
    assert data["error"] is None
    assert "tracks" not in data
    # every value survives the round trip
    assert data == json.loads(json.dumps(data))
    assert data["pauses"]["items"][0]["duration_s"] == 1.7


def test_json_lines_for_two_clips():
    text = render([make_report("a.wav"), error_report()], "json")
    lines = text.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["file"] == "a.wav" and first["error"] is None
    assert second["file"] == "broken.mp3"
    assert second["error"] == "not audio: the file could not be decoded"


def test_json_turns_nan_into_null():
    report = make_report()
    report.pitch.median_hz = float("nan")
    data = json.loads(render([report], "json"))
    assert data["pitch"]["median_hz"] is None


# ---------------------------------------------------------------- csv


def test_csv_header_and_one_row_per_clip():
    text = render([make_report("a.wav"), make_report("b.wav"), error_report()], "csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == HEADLINE_COLUMNS
    assert len(rows) == 4
    table = [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]
    assert [r["file"] for r in table] == ["a.wav", "b.wav", "broken.mp3"]
    assert table[0]["wpm"] == "97.2"
    assert table[0]["fillers"] == "4"
    assert table[0]["filled_pauses"] == "3"
    assert table[0]["top_tip"] == "Cut the fillers: 24.0 per minute."
    assert table[0]["error"] == ""
    assert table[2]["error"] == "not audio: the file could not be decoded"


# ---------------------------------------------------------------- markdown


def test_markdown_has_figures_tips_and_bold_fillers():
    text = render([make_report()], "md")
    assert text.startswith("# talks/rivers.wav\n")
    assert "| Pace | 97 wpm" in text
    assert "um x2, uh x1, you know x1" in text
    assert "1. Cut the fillers: 24.0 per minute. (at 0:02)" in text
    assert "2. Vary your pitch: it spread only 1.4 semitones.\n" in text
    assert "**So**," in text and "**um**," in text and "**you know**," in text
    assert "**rivers**" not in text


def test_markdown_batch_starts_with_a_summary_table():
    text = render([make_report("a.wav"), make_report("b.wav")], "md")
    summary_at = text.index("| File | Length |")
    assert summary_at < text.index("## a.wav") < text.index("## b.wav")
    assert "### Tips" in text


def test_markdown_escapes_markup():
    words = [("<b>*not*", 0.5, 1.0, False), ("|bold|", 1.1, 1.5, False)]
    text = render([make_report(transcript_words=words)], "md")
    assert r"\<b\>\*not\*" in text
    assert r"\|bold\|" in text


# ---------------------------------------------------------------- text


def test_text_shows_figures_tips_and_transcript():
    text = render([make_report()], "text")
    assert "talks/rivers.wav" in text
    assert "97 wpm" in text
    assert "articulation 122 wpm" in text
    assert "um x2, uh x1, you know x1" in text
    assert "1." in text and "Cut the fillers" in text and "at 0:02" in text
    assert "[um]," in text and "[you know]," in text
    assert "\x1b[" not in text  # plain text, no colour codes
    assert max(len(line) for line in text.splitlines()) <= 100


def test_text_batch_ends_with_a_summary():
    text = render([make_report("a.wav"), make_report("b.wav")], "text")
    summary = text[text.rindex("Summary") :]
    assert "a.wav" in summary and "b.wav" in summary and "97" in summary


def test_text_shows_markup_like_names_and_long_errors_verbatim():
    long_error = ClipReport(file="x.wav", error="cannot decode " + "e" * 150)
    text = render([make_report("a [b]c[/b].wav"), long_error], "text")
    assert text.count("a [b]c[/b].wav") == 2  # header and summary
    assert f"x.wav: cannot decode {'e' * 150}\n" in text


def test_text_summary_columns_match_the_shared_headers():
    from coach.render.common import SUMMARY_HEADERS
    from coach.render.text import _SUMMARY_TEXT_HEADERS

    assert len(_SUMMARY_TEXT_HEADERS) == len(SUMMARY_HEADERS)


def test_print_reports_writes_to_the_given_console():
    from rich.console import Console

    console = Console(file=io.StringIO(), width=100, record=True)
    print_reports([make_report()], console)
    assert "97 wpm" in console.export_text()


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("fmt", ["text", "json", "csv", "md"])
def test_error_clip_shows_its_error_in_every_format(fmt):
    text = render([error_report()], fmt)
    assert "not audio: the file could not be decoded" in text
    if fmt in {"text", "md"}:
        assert "broken.mp3: not audio: the file could not be decoded" in text
    if fmt == "text":
        assert text.strip() == "broken.mp3: not audio: the file could not be decoded"


def test_error_that_names_its_file_is_not_prefixed_twice():
    report = ClipReport(file="gone.wav", error="gone.wav: no such file")
    assert render([report], "text") == "gone.wav: no such file\n"


def test_error_clip_in_html(tmp_path: Path):
    page = clip_page(error_report())
    assert "broken.mp3: not audio: the file could not be decoded" in page
    paths = write_html([make_report("a.wav"), error_report()], tmp_path / "out")
    index = (tmp_path / "out" / "index.html").read_text()
    assert "not audio: the file could not be decoded" in index
    assert len(paths) == 3


def test_unknown_format_is_an_options_error():
    with pytest.raises(OptionsError, match="text, json, csv, md"):
        render([make_report()], "pdf")
    with pytest.raises(OptionsError, match="write_html"):
        render([make_report()], "html")
    assert FORMATS == ("text", "json", "csv", "md", "html")


# ---------------------------------------------------------------- html

_EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.I)


def test_html_page_is_self_contained_with_charts(tmp_path: Path):
    out = tmp_path / "rivers.html"
    assert write_html([make_report()], out) == [out]
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert not _EXTERNAL.search(page)
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"<script[^>]*\ssrc=", page)  # inline scripts only
    assert page.count("<svg") == 3  # waveform, pace, pitch
    assert "97 wpm" in page
    assert "Cut the fillers" in page
    assert '<mark data-t="2.40" title="filler at 0:02">um</mark>,' in page
    assert "[1.7 s]" in page  # the long pause, in the transcript
    assert "No recording with this page" in page  # talks/rivers.wav does not exist
    assert page.count("<audio") == 0


def test_html_escapes_the_transcript():
    words = [("<script>alert(1)</script>", 0.5, 1.0, False), ("&", 1.1, 1.5, True)]
    page = clip_page(make_report(file="<x>.wav", transcript_words=words))
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;x&gt;.wav" in page
    assert "<mark" in page and "&amp;" in page


def test_html_without_tracks_says_so_and_keeps_the_pace_chart():
    page = clip_page(make_report(tracks=False))
    assert "not stored in JSON" in page
    assert page.count("<svg") == 1


def test_html_batch_writes_unique_pages_and_an_index(tmp_path: Path):
    reports = [make_report("a/talk.wav"), make_report("b/talk.wav"), make_report("index.mp3")]
    paths = write_html(reports, tmp_path / "site")
    names = [p.name for p in paths]
    assert names == ["talk.html", "talk-2.html", "index-2.html", "index.html"]
    index = (tmp_path / "site" / "index.html").read_text()
    for name in names[:-1]:
        assert f'href="{name}"' in index
    assert 'href="index.html"' in (tmp_path / "site" / "talk.html").read_text()
    assert not _EXTERNAL.search(index)


def test_html_of_an_hour_long_clip_stays_small():
    hour = 3600.0
    starts = np.arange(0.5, hour - 1, 0.4)
    words = [("word.", float(s), float(s) + 0.3, i % 25 == 0) for i, s in enumerate(starts)]
    report = make_report(transcript_words=words)
    report.duration_s = hour
    report.tracks = synthetic_tracks(hour, words=words[::10])
    report.fillers.items = [
        FillerItem("um", s, e, "filled_pause", "transcript") for _w, s, e, f in words if f
    ]
    report.pauses.items = [Pause(float(s), float(s) + 2, "sentence", True) for s in starts[::50]]
    page = clip_page(report)
    assert page.count("<svg") == 3
    assert len(page.encode()) < 3_000_000


def test_bucketing_keeps_extremes_and_gaps():
    env = np.zeros((10_001, 2), np.float32)
    env[5000] = (-0.9, 0.8)
    t, lo, hi = bucket_envelope(env, max_points=100)
    assert len(t) <= 100 and lo.min() == pytest.approx(-0.9) and hi.max() == pytest.approx(0.8)
    f0 = np.full(10_000, np.nan, np.float32)
    f0[:5000] = 200.0
    t, med = bucket_pitch(f0, max_points=100)
    assert len(med) == 100
    assert np.all(med[:50] == 200.0) and np.all(np.isnan(med[50:]))
    assert t[0] == pytest.approx(0.5 * 100 * 0.01)
