"""Progress over a crafted practice history: trends, sentences, terminal and HTML (no models)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from coach.errors import OptionsError
from coach.history import AnswerRecord, History, SessionRecord
from coach.progress import (
    METRICS,
    MetricTrend,
    print_progress,
    progress_html,
    summary_lines,
    trend_of,
    trends,
    window_size,
    write_progress_html,
)

# (started, kind, scenario, duration s, wpm, fillers/min, long pauses, pitch st, STAR)
SESSIONS = [
    ("2025-03-01T09:00:00", "score", "pitch.wav", 120.0, 182.0, 6.0, 6, 1.5, None),
    ("2025-03-02T09:00:00", "score", "pitch.wav", 120.0, 178.0, 5.5, 4, 1.8, None),
    ("2025-03-03T09:00:00", "rehearse", "Quarterly review", 300.0, 175.0, 5.8, 10, 2.0, None),
    ("2025-03-04T09:00:00", "interview", "Backend engineer", 600.0, 170.0, 4.0, 10, 2.2, 0.75),
    ("2025-03-05T09:00:00", "score", "pitch.wav", 120.0, 168.0, 3.0, 2, 2.4, None),
    ("2025-03-06T09:00:00", "interview", "Backend engineer", 600.0, 172.0, 2.0, 5, 2.6, 0.5),
    ("2025-03-07T09:00:00", "score", "pitch.wav", 120.0, 170.0, 2.2, 1, 2.5, None),
]
"""Seven sessions: pace, fillers, long pauses and pitch spread improve; STAR coverage falls
from 75 % to 50 %. Over the last five, pace (171 wpm), fillers (3.4 /min) and STAR coverage
(62.5 %) miss their targets."""

ANSWERS = {
    "2025-03-04T09:00:00": [
        AnswerRecord(1, "behavioral", "Tell me about a conflict.", "behavioral",
                     addressed=True, star_coverage=0.5),
        AnswerRecord(2, "technical", "Design a rate limiter.", "system design", addressed=False),
    ],
    "2025-03-06T09:00:00": [
        AnswerRecord(1, "behavioral", "Tell me about a failure.", "behavioral",
                     addressed=True, star_coverage=0.25),
        AnswerRecord(2, "technical", "Design a URL shortener.", "system design", addressed=True),
    ],
    "2025-03-03T09:00:00": [
        AnswerRecord(1, "question", "Why this quarter?", "audience", addressed=True),
    ],
}  # fmt: skip
"""Interview scores: behavioral (0.5 + 0.25) / 2 = 0.375, system design (0 + 1) / 2 = 0.5."""

FEELINGS = re.compile(
    r"\b(great|good|well done|excellent|amazing|awesome|fantastic|impressive|nice|proud|"
    r"congrat\w*|keep it up|worr\w*|bad|terrible|unfortunately|feel\w*|happy|sad)\b|!",
    re.I,
)


def record(row: tuple) -> SessionRecord:  # type: ignore[type-arg]
    started, kind, scenario, dur, wpm, fpm, lp, pitch, star = row
    return SessionRecord(
        started, kind, scenario=scenario, duration_s=dur, wpm=wpm, fillers_per_min=fpm,
        long_pauses=lp, pause_total_s=10.0, pitch_spread_st=pitch, volume_spread_db=4.0,
        hedges=2, star_coverage=star, answers=list(ANSWERS.get(started, [])),
    )  # fmt: skip


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[History]:
    with History.open(tmp_path / "history.sqlite3") as history:
        yield history


@pytest.fixture
def db(empty: History) -> History:
    for row in SESSIONS:
        empty.add(record(row))
    return empty


def by_metric(found: list[MetricTrend]) -> dict[str, MetricTrend]:
    return {t.metric: t for t in found}


def console_text(history: History, **kwargs) -> str:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    print_progress(history, Console(file=out, width=120), **kwargs)
    return out.getvalue()


# --- trends ----------------------------------------------------------------------------------


def test_window_size_never_overlaps() -> None:
    assert [window_size(n) for n in range(8)] == [0, 1, 1, 1, 2, 2, 3, 3]


def test_trends_first_last_and_directions(db: History) -> None:
    t = by_metric(trends(db))
    assert list(t) == ["wpm", "fillers_per_min", "long_pauses_per_min", "pitch_spread_st",
                       "star_coverage"]  # fmt: skip
    wpm = t["wpm"]
    assert wpm.window == 3 and wpm.sessions == 7
    assert wpm.first == pytest.approx((182 + 178 + 175) / 3)
    assert wpm.last == pytest.approx((168 + 172 + 170) / 3)
    assert wpm.change == pytest.approx(wpm.last - wpm.first)
    assert wpm.best == 168.0  # closest to the 100-165 band
    assert wpm.direction == "better" and wpm.target == "100-165 wpm"
    assert wpm.points[0] == ("2025-03-01T09:00:00", 182.0)
    fillers = t["fillers_per_min"]
    assert (fillers.first, fillers.last) == (pytest.approx(5.7667, abs=1e-4), pytest.approx(2.4))
    assert fillers.direction == "better" and fillers.best == 2.0
    pauses = t[
        "long_pauses_per_min"
    ]  # 6, 4, 10 and 2, 5, 1 long pauses per 2, 2, 5 and 2, 10, 2 min
    assert pauses.first == pytest.approx((3 + 2 + 2) / 3)
    assert pauses.last == pytest.approx((1 + 0.5 + 0.5) / 3)
    assert pauses.direction == "better"
    pitch = t["pitch_spread_st"]
    assert pitch.direction == "better" and pitch.best == 2.6
    star = t["star_coverage"]  # two sessions: the first against the last
    assert (star.window, star.first, star.last) == (1, 0.75, 0.5)
    assert star.direction == "worse" and star.change == pytest.approx(-0.25)


def test_trends_of_one_kind(db: History) -> None:
    t = by_metric(trends(db, kind="score"))
    assert "star_coverage" not in t  # never measured in score sessions
    assert t["wpm"].window == 2 and t["wpm"].sessions == 4
    assert (t["wpm"].first, t["wpm"].last) == (180.0, 169.0)
    with pytest.raises(OptionsError, match="unknown session kind"):
        trends(db, kind="speech")


def test_trends_of_empty_history(empty: History) -> None:
    assert trends(empty) == []


def spec(metric: str):  # type: ignore[no-untyped-def]
    return next(s for s in METRICS if s.metric == metric)


def points(*values: float) -> list[tuple[str, float]]:
    return [(f"2025-01-{i + 1:02d}T10:00:00", v) for i, v in enumerate(values)]


@pytest.mark.parametrize(
    ("metric", "values", "direction"),
    [
        ("wpm", (120, 160), "same"),  # both within the band
        ("wpm", (90, 110), "better"),  # into the band from below
        ("wpm", (150, 190), "worse"),
        ("wpm", (190, 120), "better"),
        ("wpm", (200, 90), "better"),  # 35 wpm above the band, then 10 below
        ("fillers_per_min", (2.0, 2.1), "same"),
        ("fillers_per_min", (2.0, 0.5), "better"),
        ("long_pauses_per_min", (0.5, 2.5), "worse"),
        ("pitch_spread_st", (3.0, 5.0), "same"),  # on target both times
        ("pitch_spread_st", (1.0, 2.5), "better"),
        ("pitch_spread_st", (1.9, 1.2), "worse"),
        ("star_coverage", (0.5, 1.0), "better"),
        ("star_coverage", (0.75, 0.78), "same"),
        ("wpm", (140,), "n/a"),
    ],
)
def test_direction_per_metric(metric: str, values: tuple[float, ...], direction: str) -> None:
    t = trend_of(spec(metric), points(*values))
    assert t is not None
    assert t.direction == direction
    assert (t.first, t.last) == (values[0], values[-1])


def test_trend_of_no_points() -> None:
    assert trend_of(spec("wpm"), []) is None


# --- sentences -------------------------------------------------------------------------------


def test_summary_lines_state_figures(db: History) -> None:
    lines = summary_lines(
        trends(db), db.weakest(), question_types=db.question_type_scores("interview")
    )
    assert lines[0] == (
        "Pace: 178 -> 170 wpm over 7 sessions, mean of the first 3 vs the last 3 "
        "(better; target 100-165 wpm)"
    )
    assert lines[1] == (
        "Fillers per minute: 5.8 -> 2.4 over 7 sessions, mean of the first 3 vs the last 3 "
        "(better; target at most 3 per minute)"
    )
    assert (
        "STAR coverage: 75% -> 50% over 2 sessions, first vs last session "
        "(worse; target at least 75% of the STAR parts)"
    ) in lines
    weakest = [s for s in lines if s.startswith("Weakest:")]
    assert weakest == [s for s in lines if "STAR parts on average" in s]
    assert "Also off target: fillers averaged 3.4 per minute over the last 5 sessions; " in (
        "\n".join(lines)
    )
    assert any("pace averaged 171 wpm over the last 5 sessions, above" in s for s in lines)
    assert lines[-1].startswith("Weakest question type: behavioral, mean answer score 38%")
    for line in lines:
        assert not FEELINGS.search(line), line
        assert re.search(r"\d", line), line


def test_summary_lines_single_session_and_no_weakness(empty: History) -> None:
    empty.add(record(("2025-03-01T09:00:00", "score", "a.wav", 60.0, 140.0, 1.0, 1, 3.0, None)))
    lines = summary_lines(trends(empty), empty.weakest())
    assert lines[0] == "Pace: 140 wpm in 1 session (target 100-165 wpm)"
    assert lines[-1] == "No area missed its target in the recent sessions"
    assert not any(FEELINGS.search(s) for s in lines)


# --- terminal --------------------------------------------------------------------------------


def test_print_progress(db: History) -> None:
    text = console_text(db)
    for row in SESSIONS:
        assert row[0][:16].replace("T", " ") in text
    assert "Quarterly review" in text and "Backend engineer" in text
    assert re.search(r"2025-03-01 09:00 +score +pitch\.wav +2:00 +182 +6\.0 +6 +1\.5 +-", text)
    assert re.search(r"2025-03-06 09:00 +interview +Backend engineer +10:00 +172 +2\.0 .*50%", text)
    assert re.search(r"Pace \(wpm\) +178 +170 +↓ 8 better +168 +7 +100-165 wpm", text)
    assert re.search(r"STAR coverage +75% +50% +↓ 25% worse", text)
    assert "Weakest areas" in text
    assert "pace averaged 171 wpm over the last 5 sessions" in text
    assert "fillers averaged 3.4 per minute" in text
    assert "Weakest question types" in text
    assert text.index("behavioral") < text.index("system design")  # lowest score first
    assert not FEELINGS.search(text.replace("!", ""))


def test_print_progress_one_kind_has_no_question_types(db: History) -> None:
    text = console_text(db, kind="score")
    assert "Backend engineer" not in text and "Weakest question types" not in text
    assert "4 sessions (4 score)" in text


def test_print_progress_empty(empty: History) -> None:
    text = console_text(empty)
    assert text.strip() == (
        "No sessions yet: run `coach score`, `coach rehearse` or `coach interview`"
    )
    assert len(text.strip().splitlines()) == 1
    assert console_text(empty, kind="interview").strip() == (
        "No interview sessions yet: run `coach interview`"
    )


def test_scenario_markup_is_printed_as_text(empty: History) -> None:
    empty.add(record(("2025-03-01T09:00:00", "score", "[bold]x[/bold]", 60.0, 140, 1, 1, 3, None)))
    assert "[bold]x[/bold]" in console_text(empty)


# --- HTML ------------------------------------------------------------------------------------


def test_progress_html(db: History) -> None:
    page = progress_html(db)
    found = trends(db)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == len(found) == 5
    for svg in re.findall(r"<svg.*?</svg>", page, flags=re.S):
        assert re.search(r'<path[^>]* d="M ', svg)  # a drawn line
    for t in found:
        assert f"<h3>{t.label}</h3>" in page
    assert "http" not in page
    assert not re.search(r"""(src|href)=["'](?!#)|url\((?!#)|@import""", page)
    assert "Quarterly review" in page and "2025-03-07 09:00" in page
    assert "pace averaged 171 wpm over the last 5 sessions" in page
    assert "Weakest question types" in page and "<td>behavioral</td>" in page
    # ids of the several charts stay distinct
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))


def test_progress_html_escapes_and_filters(db: History) -> None:
    db.add(record(("2025-03-08T09:00:00", "score", "<script>x</script>", 60, 140, 1, 1, 3, None)))
    page = progress_html(db, kind="score")
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "Backend engineer" not in page and "Weakest question types" not in page
    assert page.count("<svg") == 4  # no STAR coverage in score sessions


def test_progress_html_empty(empty: History) -> None:
    page = progress_html(empty)
    assert "No sessions yet" in page and "<svg" not in page and "http" not in page
    assert page.rstrip().endswith("</html>")


def test_write_progress_html(db: History, tmp_path: Path) -> None:
    out = tmp_path / "reports" / "progress.html"
    assert write_progress_html(db, out) == out
    first = out.read_text(encoding="utf-8")
    assert first.count("<svg") == 5
    db.delete_all()
    write_progress_html(db, out)
    assert "No sessions yet" in out.read_text(encoding="utf-8")
    assert [p.name for p in out.parent.iterdir()] == ["progress.html"]  # no temporary left
