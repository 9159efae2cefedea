"""The practice history database: no models, a fresh SQLite file per test."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import ROOT, spaced
from helpers import error_report, make_report, synthetic_tracks

from coach.analysis.answers import judge_answer
from coach.audience import Question
from coach.errors import CoachError, OptionsError
from coach.history import (
    EXPORT_COLUMNS,
    SCHEMA_VERSION,
    AnswerRecord,
    History,
    HistoryError,
    SessionRecord,
    Targets,
    default_history_path,
    record_from_clip_report,
    record_from_rehearsal,
)
from coach.live.results import Exchange, SessionResult
from coach.score import Measured, analyze


@pytest.fixture
def db(tmp_path: Path) -> History:
    with History.open(tmp_path / "history.sqlite3") as history:
        yield history  # type: ignore[misc]


def session(started: str, kind: str = "score", **figures) -> SessionRecord:  # type: ignore[no-untyped-def]
    """A session on target unless ``figures`` say otherwise."""
    values = dict(
        scenario=f"{kind} {started}", duration_s=60.0, wpm=140.0, fillers_per_min=1.0,
        long_pauses=1, pause_total_s=6.0, pitch_spread_st=3.0, volume_spread_db=4.0, hedges=2,
    )  # fmt: skip
    values.update(figures)
    return SessionRecord(started, kind, **values)


def interview(started: str, answers: list[AnswerRecord], **figures) -> SessionRecord:  # type: ignore[no-untyped-def]
    s = session(started, "interview", **figures)
    s.answers = answers
    return s


def answer(idx: int, qtype: str, addressed: bool | None, coverage: float | None) -> AnswerRecord:
    star = None
    if coverage is not None:
        parts = ("situation", "task", "action", "result")
        star = {p: i < round(coverage * 4) for i, p in enumerate(parts)}
    return AnswerRecord(
        idx, stage="behavioral", question=f"Question {idx}?", question_type=qtype,
        answer=f"Answer {idx}.", duration_s=30.0, words=70, wpm=140.0, fillers=1,
        addressed=addressed, star=star, star_coverage=coverage, specificity=0.5,
        extra={"reason": "gave specifics (23)"},
    )  # fmt: skip


# ---------------------------------------------------------------- opening


def test_open_creates_the_schema_with_wal_foreign_keys_and_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "history.sqlite3"
    with History.open(path) as h:
        assert h.path == path and path.exists()
        conn = h._conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"sessions", "answers"} <= tables
    with History.open(path) as h:  # opening again keeps it as it is
        assert h.count() == 0


def test_default_path_follows_coach_data_dir(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "data"))
    assert default_history_path() == tmp_path / "data" / "history.sqlite3"
    with History.open() as h:
        assert h.path == tmp_path / "data" / "history.sqlite3"
        assert h.path.exists()


def test_a_file_that_is_not_a_database_gives_one_line_history_error(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    with pytest.raises(HistoryError) as info:
        History.open(path)
    message = str(info.value)
    assert isinstance(info.value, CoachError)
    assert "\n" not in message
    assert str(path) in message and "not a SQLite database" in message
    assert "move the file aside" in message
    assert path.read_bytes().startswith(b"these are my notes")  # left untouched


def test_a_newer_schema_version_gives_history_error(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with History.open(path) as h:
        h.add(session("2025-01-01T10:00:00"))
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(HistoryError) as info:
        History.open(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    assert f"version {SCHEMA_VERSION + 1} is newer" in message and "upgrade coach" in message


def test_a_damaged_database_gives_one_line_history_error(tmp_path: Path) -> None:
    good = tmp_path / "good.sqlite3"
    with History.open(good) as h:
        for day in range(1, 9):
            h.add(interview(f"2025-01-0{day}T10:00:00", [answer(1, "behavioral", True, 1.0)]))
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(good.read_bytes()[:1500])  # cut inside the first page
    with pytest.raises(HistoryError) as info:
        History.open(damaged)
    message = str(info.value)
    assert "\n" not in message and str(damaged) in message
    assert "damaged SQLite database" in message and "move the file aside" in message


def test_a_second_writer_waits_for_the_first(tmp_path: Path) -> None:
    """While one coach holds the write lock, another's add() blocks (busy_timeout) instead
    of failing, and finishes once the lock is released: no clock is read, so a slow
    machine cannot fail it."""
    path = tmp_path / "history.sqlite3"
    outcome: dict[str, object] = {}
    adding, added = threading.Event(), threading.Event()

    def write() -> None:
        try:
            with History.open(path) as other:
                adding.set()
                outcome["id"] = other.add(session("2025-01-02T10:00:00"))
        except Exception as exc:  # reported below, not lost in the thread
            outcome["error"] = exc
        finally:
            added.set()

    with History.open(path) as h:
        h._conn.execute("BEGIN IMMEDIATE")  # another coach is saving a session
        h._conn.execute(
            "INSERT INTO sessions (started, kind) VALUES ('2025-01-01T10:00:00', 'score')"
        )
        worker = threading.Thread(target=write)
        worker.start()
        assert adding.wait(60)
        # the lock is held: however long we wait, the second writer cannot have finished
        assert not added.wait(0.3)
        h._conn.execute("COMMIT")
        assert added.wait(60)
        worker.join()
        assert "error" not in outcome, outcome.get("error")
        assert [s.started[:10] for s in h.sessions()] == ["2025-01-01", "2025-01-02"]


def test_another_programs_database_is_not_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(HistoryError, match="not a coach history .*recipes"):
        History.open(path)
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert tables == {"recipes"}


# ---------------------------------------------------------------- writing and reading


def test_round_trip_with_answers(db: History) -> None:
    answers = [answer(1, "behavioral", True, 0.75), answer(2, "technical", False, None)]
    answers[1].star = None
    original = interview("2025-02-01T18:30:00", answers, star_coverage=0.75)
    original.extra = {"role": "data engineer", "models": {"llm": "qwen"}}
    new_id = db.add(original)
    assert original.id is None  # the input is left as it was

    got = db.get(new_id)
    assert got is not None
    assert got.id == new_id
    assert all(a.id is not None for a in got.answers)
    for a in got.answers:
        a.id = None
    got.id = None
    assert got == original
    assert got.answers[0].star == {"situation": True, "task": True, "action": True,
                                   "result": False}  # fmt: skip
    assert got.answers[0].addressed is True and got.answers[1].addressed is False
    assert got.answers[1].star_coverage is None
    assert db.get(new_id + 1) is None


def test_headline_figures_may_be_none(db: History) -> None:
    s = SessionRecord("2025-02-01T10:00:00", "score", folder="silent.wav")
    s.answers = [AnswerRecord(1)]
    got = db.get(db.add(s))
    assert got is not None
    assert got.wpm is None and got.pitch_spread_st is None and got.star_coverage is None
    assert got.answers[0].addressed is None and got.answers[0].star is None


def test_sessions_are_oldest_first_filtered_and_limited_to_the_most_recent(db: History) -> None:
    db.add(session("2025-03-03T09:00:00", "rehearse"))
    db.add(session("2025-03-01T09:00:00", "score"))
    db.add(interview("2025-03-02T09:00:00", [answer(1, "behavioral", True, 1.0)]))
    db.add(session("2025-03-04T09:00:00", "score"))

    assert [s.started[:10] for s in db.sessions()] == [
        "2025-03-01", "2025-03-02", "2025-03-03", "2025-03-04",
    ]  # fmt: skip
    assert [s.started[:10] for s in db.sessions(kind="score")] == ["2025-03-01", "2025-03-04"]
    assert [s.started[:10] for s in db.sessions(limit=2)] == ["2025-03-03", "2025-03-04"]
    assert len(db.sessions(kind="interview")[0].answers) == 1
    assert db.sessions(limit=0) == []
    assert db.count() == 4 and db.count("score") == 2
    with pytest.raises(OptionsError, match="unknown session kind 'talk'"):
        db.sessions(kind="talk")


def test_bad_records_are_refused_before_anything_is_written() -> None:
    with pytest.raises(OptionsError, match="use one of score, rehearse, interview"):
        SessionRecord("2025-01-01T00:00:00", "podcast")
    with pytest.raises(OptionsError, match="between 0 and 1"):
        SessionRecord("2025-01-01T00:00:00", "interview", star_coverage=1.5)
    with pytest.raises(OptionsError, match="between 0 and 1"):
        AnswerRecord(1, star_coverage=-0.1)


def test_extra_that_is_not_json_is_refused_and_nothing_is_written(db: History) -> None:
    s = session("2025-01-01T00:00:00")
    s.answers = [AnswerRecord(1, extra={"obj": object()})]
    with pytest.raises(OptionsError, match="JSON-ready"):
        db.add(s)
    assert db.count() == 0


# ---------------------------------------------------------------- trends and weak areas


def test_trend_skips_sessions_without_the_figure(db: History) -> None:
    db.add(session("2025-01-01T10:00:00", wpm=120.0))
    db.add(session("2025-01-02T10:00:00", wpm=None))
    db.add(session("2025-01-03T10:00:00", wpm=150.0, long_pauses=3, duration_s=90.0))
    db.add(session("2025-01-04T10:00:00", "rehearse", wpm=170.0))

    assert db.trend("wpm") == [
        ("2025-01-01T10:00:00", 120.0), ("2025-01-03T10:00:00", 150.0),
        ("2025-01-04T10:00:00", 170.0),
    ]  # fmt: skip
    assert db.trend("wpm", kind="rehearse") == [("2025-01-04T10:00:00", 170.0)]
    assert db.trend("long_pauses_per_min")[2] == ("2025-01-03T10:00:00", 2.0)
    assert db.trend("star_coverage") == []


@pytest.mark.parametrize("metric", ["words; DROP TABLE sessions", "id", "extra", ""])
def test_trend_rejects_unknown_metrics(db: History, metric: str) -> None:
    db.add(session("2025-01-01T10:00:00"))
    with pytest.raises(OptionsError, match="unknown metric .*use one of .*wpm"):
        db.trend(metric)
    assert db.count() == 1


def test_weakest_names_the_missed_targets_with_their_figures(db: History) -> None:
    db.add(session("2024-12-01T10:00:00", wpm=60.0, fillers_per_min=20.0))  # not recent
    for day, wpm, fillers in [(1, 175.0, 4.0), (2, 185.0, 5.0), (3, 180.0, 6.0)]:
        db.add(
            session(
                f"2025-01-0{day}T10:00:00", wpm=wpm, fillers_per_min=fillers,
                long_pauses=1, duration_s=60.0, pitch_spread_st=1.5 if day != 2 else None,
            )
        )  # fmt: skip
    weak = db.weakest(last_n=3)
    by_metric = {w.metric: w for w in weak}
    assert set(by_metric) == {"wpm", "fillers_per_min", "pitch_spread_st"}
    assert [w.metric for w in weak] == ["fillers_per_min", "pitch_spread_st", "wpm"]  # by gap

    fillers = by_metric["fillers_per_min"]
    assert fillers.mean == pytest.approx(5.0) and fillers.sessions == 3
    assert fillers.gap == pytest.approx(2 / 3)
    assert fillers.message == (
        "fillers averaged 5.0 per minute over the last 3 sessions; target 3 or fewer"
    )
    pace = by_metric["wpm"]
    assert pace.mean == pytest.approx(180.0) and pace.target == "100-165 wpm"
    assert pace.message == (
        "pace averaged 180 wpm over the last 3 sessions, above the 100-165 wpm target"
    )
    pitch = by_metric["pitch_spread_st"]
    assert pitch.sessions == 2 and pitch.mean == pytest.approx(1.5)  # the None is skipped
    assert "1.5 semitones over the last 2 sessions" in pitch.message
    for w in weak:
        assert "\n" not in w.message


def test_weakest_pauses_and_star_coverage_and_on_target_sessions(db: History) -> None:
    db.add(session("2025-01-01T10:00:00"))
    assert db.weakest() == []
    db.add(interview("2025-01-02T10:00:00", [], long_pauses=6, duration_s=120.0,
                     star_coverage=0.5, wpm=90.0))  # fmt: skip
    weak = {w.metric: w for w in db.weakest(kind="interview")}
    assert set(weak) == {"long_pauses_per_min", "star_coverage", "wpm"}
    assert weak["long_pauses_per_min"].mean == pytest.approx(3.0)
    assert "3.0 per minute over the last 1 session;" in weak["long_pauses_per_min"].message
    assert weak["star_coverage"].message == (
        "answers covered 50% of the STAR parts on average over the last 1 session; target 75%"
    )
    assert "90 wpm" in weak["wpm"].message and "below" in weak["wpm"].message
    relaxed = Targets(pace_wpm=(80.0, 200.0), long_pauses_per_min=4.0, star_coverage=0.4)
    assert db.weakest(kind="interview", targets=relaxed) == []
    with pytest.raises(OptionsError, match="last_n must be at least 1"):
        db.weakest(last_n=0)


def test_question_type_scores_lowest_first(db: History) -> None:
    db.add(
        interview("2025-01-01T10:00:00", [
            answer(1, "behavioral", True, 0.5),
            answer(2, "technical", True, None),  # addressed, not judged for STAR: 1
            answer(3, "system design", False, 1.0),  # did not address it: 0
            answer(4, "unjudged", None, None),  # skipped
            answer(5, "", True, 1.0),  # no type: skipped
        ])
    )  # fmt: skip
    db.add(
        interview("2025-01-02T10:00:00", [
            answer(1, "behavioral", True, 1.0),
            answer(2, "system design", True, 0.5),
        ])
    )  # fmt: skip
    s = session("2025-01-03T10:00:00", "rehearse")
    s.answers = [answer(1, "audience", False, None)]
    db.add(s)

    scores = db.question_type_scores()
    assert list(scores) == ["system design", "behavioral", "technical"]
    assert scores == pytest.approx({"system design": 0.25, "behavioral": 0.75, "technical": 1.0})
    everything = db.question_type_scores(kind=None)
    assert list(everything)[0] == "audience" and everything["audience"] == 0.0


# ---------------------------------------------------------------- deleting


def test_delete_one_session_cascades_to_its_answers(db: History) -> None:
    keep = db.add(interview("2025-01-01T10:00:00", [answer(1, "behavioral", True, 1.0)]))
    gone = db.add(interview("2025-01-02T10:00:00", [answer(i, "technical", True, None)
                                                    for i in (1, 2, 3)]))  # fmt: skip
    assert db.delete(gone) is True
    assert db.delete(gone) is False
    assert [s.id for s in db.sessions()] == [keep]
    left = db._conn.execute("SELECT session_id FROM answers").fetchall()
    assert [r[0] for r in left] == [keep]


def test_delete_all(db: History) -> None:
    for day in (1, 2, 3):
        db.add(interview(f"2025-01-0{day}T10:00:00", [answer(1, "behavioral", True, 1.0)]))
    assert db.delete_all() == 3
    assert db.sessions() == [] and db.count() == 0
    assert db._conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 0
    assert db.delete_all() == 0


# ---------------------------------------------------------------- export


def test_export_csv_parses_back(db: History) -> None:
    db.add(interview("2025-01-01T10:00:00", [answer(1, "behavioral", True, 1.0)],
                     star_coverage=1.0))  # fmt: skip
    db.add(session("2025-01-02T10:00:00", wpm=None, scenario="talk, v2"))
    rows = list(csv.DictReader(io.StringIO(db.export("csv"))))
    assert list(rows[0]) == list(EXPORT_COLUMNS)
    assert len(rows) == 2
    assert rows[0]["kind"] == "interview" and rows[0]["answers"] == "1"
    assert float(rows[0]["star_coverage"]) == 1.0 and float(rows[0]["wpm"]) == 140.0
    assert rows[1]["wpm"] == "" and rows[1]["star_coverage"] == ""
    assert rows[1]["scenario"] == "talk, v2"
    assert len(list(csv.DictReader(io.StringIO(db.export("csv", kind="score"))))) == 1


def test_export_json_parses_back(db: History) -> None:
    db.add(interview("2025-01-01T10:00:00", [answer(1, "behavioral", True, 0.5)],
                     star_coverage=0.5))  # fmt: skip
    data = json.loads(db.export("json"))
    assert len(data) == 1
    assert data[0]["kind"] == "interview" and data[0]["star_coverage"] == 0.5
    assert data[0]["answers"][0]["question_type"] == "behavioral"
    assert data[0]["answers"][0]["star"]["situation"] is True
    assert data[0]["answers"][0]["addressed"] is True
    assert SessionRecord(**{**data[0], "answers": []}).kind == "interview"
    with pytest.raises(OptionsError, match="use csv or json"):
        db.export("xml")


# ---------------------------------------------------------------- building records


def test_record_from_clip_report_uses_the_headline_figures() -> None:
    report = make_report("talks/rivers.wav")
    rec = record_from_clip_report(report, kind="score", scenario="rivers.wav",
                                  started="2025-01-05T09:00:00")  # fmt: skip
    assert rec.kind == "score" and rec.scenario == "rivers.wav"
    assert rec.folder == "talks/rivers.wav" and rec.started == "2025-01-05T09:00:00"
    assert rec.duration_s == 11.0 and rec.wpm == 97.2 and rec.fillers_per_min == 24.0
    assert rec.long_pauses == 1 and rec.pause_total_s == 2.0
    assert rec.pitch_spread_st == 1.4 and rec.volume_spread_db == 3.2 and rec.hedges == 1
    assert rec.star_coverage is None and rec.answers == []
    assert rec.extra["word_count"] == 18 and rec.extra["monotone"] is True
    assert rec.extra["top_tip"].startswith("Cut the fillers")
    assert record_from_clip_report(report, kind="score", folder="x/").folder == "x/"


def test_record_from_a_failed_clip_has_no_figures(db: History) -> None:
    rec = record_from_clip_report(error_report(), kind="score")
    assert rec.wpm is None and rec.duration_s is None and rec.pitch_spread_st is None
    assert rec.extra["error"].startswith("not audio")
    assert rec.started  # now, ISO 8601
    got = db.get(db.add(rec))
    assert got is not None and got.extra["error"] == rec.extra["error"]


def test_record_from_an_analyzed_clip_round_trips(db: History) -> None:
    items = [(w.text, w.start_s, w.end_s, False) for w in spaced(
        "today I want to talk about rivers and why they matter to all of us here",
        start_s=0.5, step_s=0.4, dur_s=0.3,
    )]  # fmt: skip
    measured = Measured(
        words=spaced("today I want to talk about rivers and why they matter to all of us here",
                     start_s=0.5, step_s=0.4, dur_s=0.3),
        tracks=synthetic_tracks(7.5, items), duration_s=7.5,
    )  # fmt: skip
    report = analyze(measured, file="rivers.wav")
    assert report.ok and report.word_count > 0
    rec = record_from_clip_report(report, kind="score", started="2025-01-06T09:00:00")
    assert rec.wpm == pytest.approx(report.pace.wpm)
    assert rec.pitch_spread_st == pytest.approx(report.pitch.spread_st)
    got = db.get(db.add(rec))
    assert got is not None and got.wpm == pytest.approx(report.pace.wpm)


def test_record_from_rehearsal_has_one_answer_per_exchange(tmp_path: Path, db: History) -> None:
    q1 = Question("How fast do rivers erode their banks?", "erosion", "llm", 1,
                  lead_in="You said rivers are roads.")  # fmt: skip
    q2 = Question("What did you measure?", "erosion", "llm", 1, kind="follow_up")
    a1 = make_report("answers/answer_01.wav", tracks=False)
    result = SessionResult(
        tmp_path / "20250107-rehearse", talk=make_report(tracks=False),
        exchanges=[
            Exchange(1, q1, "answers/answer_01.wav", a1,
                     judge_answer(q1.text, "I'm not sure, it depends")),
            Exchange(2, q2),  # no recording was left for it
        ],
        status="complete", started="2025-01-07T19:00:00",
    )  # fmt: skip
    rec = record_from_rehearsal(result, scenario="rivers")
    assert rec.kind == "rehearse" and rec.started == "2025-01-07T19:00:00"
    assert rec.folder == str(tmp_path / "20250107-rehearse") and rec.scenario == "rivers"
    assert rec.wpm == 97.2 and rec.extra["status"] == "complete"
    assert [a.idx for a in rec.answers] == [1, 2]
    first, second = rec.answers
    assert first.stage == "question" and first.question_type == "audience"
    assert first.addressed is False and "deflected" in first.extra["reason"]
    assert first.words == 18 and first.wpm == 97.2 and first.fillers == 4
    assert first.extra["lead_in"] == "You said rivers are roads."
    assert second.stage == "follow_up" and second.addressed is None and second.answer == ""
    got = db.get(db.add(rec))
    assert got is not None and len(got.answers) == 2 and got.answers[0].addressed is False


def test_record_from_rehearsal_without_a_talk() -> None:
    result = SessionResult(Path("s"), status="no_speech", started="2025-01-08T19:00:00")
    rec = record_from_rehearsal(result)
    assert rec.wpm is None and rec.answers == [] and rec.extra["status"] == "no_speech"


# ---------------------------------------------------------------- crash safety

_CHILD = r"""
import os, sys, time
from pathlib import Path
from coach.history import AnswerRecord, History, SessionRecord

path, mode = Path(sys.argv[1]), sys.argv[2]
h = History.open(path)
h._conn.execute("PRAGMA cache_size = 8")  # a tiny page cache: uncommitted pages spill to the WAL

def before(sql):
    if sql.startswith("COMMIT"):  # every row is written; the commit has not happened
        if mode == "exit":
            os._exit(1)
        print("mid-write", flush=True)
        time.sleep(120)

h._conn.set_trace_callback(before)
answers = [AnswerRecord(i, question="q" * 2000, answer="a " * 3000, question_type="doomed")
           for i in range(1, 300)]
h.add(SessionRecord("2025-01-09T10:00:00", "interview", scenario="doomed", answers=answers))
print("committed", flush=True)
"""


@pytest.mark.parametrize("how", ["exit", "sigkill"])
def test_a_process_killed_mid_write_leaves_no_partial_session(tmp_path: Path, how: str) -> None:
    if how == "sigkill" and not hasattr(signal, "SIGKILL"):
        pytest.skip("no SIGKILL on this platform")
    path = tmp_path / "history.sqlite3"
    with History.open(path) as h:
        kept = [
            h.add(interview("2025-01-01T10:00:00", [answer(1, "behavioral", True, 1.0)])),
            h.add(session("2025-01-02T10:00:00")),
        ]
        before = h.export("json")

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-c", _CHILD, str(path), "exit" if how == "exit" else "hold"]
    if how == "exit":
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 1, done.stderr
        assert "committed" not in done.stdout
    else:
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "mid-write"
            os.kill(child.pid, signal.SIGKILL)
            assert child.wait(timeout=30) == -signal.SIGKILL
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            if child.stdout is not None:
                child.stdout.close()

    with History.open(path) as h:
        conn = h._conn
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert [s.id for s in h.sessions()] == kept
        assert h.export("json") == before
        assert conn.execute(
            "SELECT COUNT(*) FROM answers WHERE question_type = 'doomed'"
        ).fetchone()[0] == 0  # fmt: skip
        # the write lock died with the process: the next session is saved at once
        new_id = h.add(session("2025-01-10T10:00:00"))
        assert h.count() == 3 and h.get(new_id) is not None
