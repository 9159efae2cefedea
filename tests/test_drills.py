"""Drills (issue 10): pure scoring on constructed reports, prompts, the history, progress,
the whole drill through the virtual mic with a recogniser that reads the fixture's
manifest (no models), and `coach drill` end to end with the real models."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console

from coach.analysis.fillers import FillerItem, FillerStats
from coach.analysis.pace import PaceStats
from coach.analysis.pauses import Pause, PauseStats
from coach.analysis.prosody import EnergyStats, TrailOff
from coach.cli import main
from coach.drills import PROMPT_DRILLS
from coach.drills.prompts import load_prompts, prompts_for
from coach.drills.run import (
    DrillOptions,
    DrillResult,
    NoSpeechError,
    drill_record,
    result_lines,
    run_drill,
)
from coach.drills.scoring import (
    pace_needle,
    personal_band,
    score_opening,
    score_pace,
    score_pauses,
    standing,
    suggest_drill,
)
from coach.drills.summary import suggestion, summarize, summary_line
from coach.errors import OptionsError
from coach.history import DrillRecord, History, SessionRecord, Weakness
from coach.live.folder import SessionFolder
from coach.live.inputs import FileInput
from coach.progress import print_progress
from coach.report import ClipReport, ReportWord
from coach.transcript import Word
from tests.conftest import fixture_path, manifest_entry

# --- constructed reports ---------------------------------------------------------------------


def _pause(a: float, b: float, long_s: float = 1.5) -> Pause:
    return Pause(a, b, "sentence", b - a >= long_s)


def _filler(text: str, a: float, b: float) -> FillerItem:
    return FillerItem(text, a, b, "filled_pause", "transcript")


def report_with(
    *, fillers: list[FillerItem] = (), pauses: list[Pause] = (), words: list[ReportWord] = ()
) -> ClipReport:  # type: ignore[assignment]
    r = ClipReport(file="x.wav", duration_s=60.0)
    r.fillers = FillerStats(count=len(fillers), items=list(fillers))
    r.pauses = PauseStats(count=len(pauses), items=list(pauses),
                          long_count=sum(p.long for p in pauses))  # fmt: skip
    r.words = list(words)
    r.word_count = sum(not w.filler for w in words)
    return r


def test_pauses_score_counts_replacements_fillers_stalls_and_pauses_beside_fillers() -> None:
    r = report_with(
        fillers=[_filler("um", 5.0, 5.4), _filler("uh", 20.0, 20.3)],
        pauses=[
            _pause(1.0, 1.5),  # 0.5 s: a replacement
            _pause(4.6, 4.95),  # 0.35 s, ends 0.05 s before the um: the um's
            _pause(8.0, 9.5),  # 1.5 s: still a replacement (the ends count)
            _pause(10.0, 12.0),  # 2.0 s: a stall
            _pause(14.0, 14.25),  # 0.25 s: under 0.3 s, no moment
            _pause(20.5, 21.0),  # starts 0.2 s after the uh: the uh's
            _pause(30.0, 31.0),  # a replacement
        ],
    )
    s = score_pauses(r)
    assert (s.pauses_in_range, s.pauses_too_long, s.pauses_beside_fillers, s.fillers) == (
        3, 1, 2, 2,
    )  # fmt: skip
    assert s.moments == 6 and s.score == pytest.approx(0.5)
    assert s.filler_times_s == [5.0, 20.0]


def test_pauses_score_all_replaced_none_replaced_and_nothing_to_judge() -> None:
    assert score_pauses(report_with(pauses=[_pause(1, 1.6), _pause(3, 3.4)])).score == 1.0
    assert score_pauses(report_with(fillers=[_filler("um", 1, 1.3)])).score == 0.0
    assert score_pauses(report_with()).score is None
    with pytest.raises(OptionsError, match="min_pause_s < max_pause_s"):
        from coach.drills.scoring import PausesDrillOptions

        PausesDrillOptions(min_pause_s=2.0, max_pause_s=1.0)


def _words_at(rate_wpm: float, a: float, b: float) -> list[ReportWord]:
    """Words evenly at ``rate_wpm`` from ``a`` to ``b`` seconds."""
    step = 60.0 / rate_wpm
    n = round((b - a) / step)
    return [ReportWord(f"w{i}", a + i * step, a + i * step + step * 0.8, False) for i in range(n)]


def test_pace_score_is_the_share_of_10_s_windows_in_the_band() -> None:
    # 0-10 s at 120 wpm, 10-20 s at 180, 20-30 s at 132, then 7 words from 30 s, one a
    # second: the last window ends with the last word (36.8 s), 7 words in 6.8 s = 62 wpm
    words = (_words_at(120, 0, 10) + _words_at(180, 10, 20) + _words_at(132, 20, 30)
             + _words_at(60, 30, 37))  # fmt: skip
    words.insert(3, ReportWord("um", 1.45, 1.5, True))  # a filler does not count
    words.append(ReportWord("mon-", 36.9, 37.0, False))  # nor a cut-off fragment
    s = score_pace(report_with(words=words), band_wpm=(110.0, 150.0))
    assert [round(w.wpm) for w in s.windows] == [120, 180, 132, 62]
    assert [w.in_band for w in s.windows] == [True, False, True, False]
    assert s.score == pytest.approx(0.5) and s.windows_in_band == 2


def test_pace_score_drops_a_short_last_window_and_judges_nothing_without_words() -> None:
    words = _words_at(120, 0, 10) + _words_at(120, 10, 13)  # the last 3 s: under 5 s
    s = score_pace(report_with(words=words), band_wpm=(100.0, 165.0))
    assert len(s.windows) == 1 and s.score == 1.0
    assert score_pace(report_with(), band_wpm=(100.0, 165.0)).score is None
    assert score_pace(report_with(words=_words_at(120, 0, 3))).score is None
    with pytest.raises(OptionsError, match="increasing"):
        score_pace(report_with(), band_wpm=(150.0, 100.0))


def test_personal_band_centres_on_your_median_inside_the_recommended_band() -> None:
    assert personal_band([130, 140, 120, 150])[0] == (120.0, 150.0)  # median 135
    band, why = personal_band([190, 185, 200])  # too fast: moved inside 100-165
    assert band == (135.0, 165.0) and "moved inside" in why and "190 wpm" in why
    assert personal_band([90, 80, 85])[0] == (100.0, 130.0)
    band, why = personal_band([130, 140])  # too few sessions
    assert band == (100.0, 165.0) and "recommended" in why
    assert personal_band([130] * 30, last_n=10)[1].startswith("your median pace over your last 10")


def test_pace_needle_places_the_needle_on_the_scale() -> None:
    line = pace_needle(130, (120.0, 150.0), width=21)
    assert line == "slow ───────[=●===]─────── fast  130 wpm (band 120-150)"
    assert pace_needle(None, (120.0, 150.0)).count("●") == 0
    assert pace_needle(400, (120.0, 150.0), width=21).split()[1].endswith("●")
    assert pace_needle(10, (120.0, 150.0), width=21).split()[1].startswith("●")


def test_opening_checks_pace_fillers_pauses_and_volume() -> None:
    r = report_with(
        fillers=[_filler("um", 3, 3.3)] * 4,
        pauses=[_pause(5, 7), _pause(12, 12.5)],
        words=_words_at(140, 0, 50),
    )
    r.pace = PaceStats(wpm=140.0, speaking_s=50.0)
    r.fillers.per_minute = 4.8
    r.energy = EnergyStats(sentences=5, trail_offs=[TrailOff(1.0, 2.0, 8.0)])
    s = score_opening(r, band_wpm=(100.0, 165.0))
    assert [(c.area, c.passed) for c in s.checks] == [
        ("pace", True), ("fillers", False), ("pauses", True), ("volume", True),
    ]  # fmt: skip
    assert s.score == pytest.approx(0.75)
    r.pace = PaceStats(wpm=40.0, speaking_s=6.0)  # under 10 s: pace not judged
    r.energy = EnergyStats(sentences=1)  # one sentence: volume not judged
    s = score_opening(r)
    assert [c.passed for c in s.checks] == [None, False, True, None]
    assert s.score == pytest.approx(0.5)
    assert score_opening(ClipReport(file="x")).score is None


def test_standing_against_earlier_runs() -> None:
    first = standing(0.5, [])
    assert first.runs_before == 0 and first.line(0.5) == "first scored run of this drill"
    s = standing(0.6, [0.4, None, 0.7, 0.5])
    assert (s.runs_before, s.last, s.best, s.change, s.new_best) == (3, 0.5, 0.7, 0.1, False)
    assert s.line(0.6) == "+10 points on the previous run (50%); best before 70%"
    assert standing(0.8, [0.7]).line(0.8).endswith("a new best")


def test_suggested_drill_is_for_the_weakest_area_a_drill_trains() -> None:
    assert suggest_drill(["pitch_spread_st", "wpm", "fillers_per_min"]) == "pace"
    assert suggest_drill(["long_pauses_per_min"]) == "pauses"
    assert suggest_drill(["star_coverage"]) is None
    weak = [
        Weakness("pitch_spread_st", 1.5, "at least 2", 5, 0.3, "pitch spread averaged 1.5"),
        Weakness("fillers_per_min", 4.0, "at most 3", 5, 0.2, "fillers averaged 4.0"),
    ]
    assert suggestion(weak) == "Suggested drill: coach drill pauses (fillers averaged 4.0)"
    assert suggestion(weak[:1]) is None and suggestion([]) is None


# --- prompts ---------------------------------------------------------------------------------


def test_every_drill_has_prompts_used_in_turn() -> None:
    for drill in PROMPT_DRILLS:
        p = prompts_for(drill)
        assert p.instructions and len(p.prompts) >= 5
        assert p.pick(0) == (1, p.prompts[0])
        assert p.pick(len(p.prompts) + 1) == (2, p.prompts[1])
    with pytest.raises(OptionsError, match="prompts 1 to"):
        prompts_for("pauses").get(99)


def test_a_malformed_prompts_file_says_what_is_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "prompts.toml"
    bad.write_text('[pauses]\ninstructions = "x"\nprompts = []\n')
    with pytest.raises(OptionsError, match=r"\[pauses\] needs"):
        load_prompts(bad)
    bad.write_text("[pauses\n")
    with pytest.raises(OptionsError, match="cannot read the drill prompts"):
        load_prompts(bad)


# --- history and progress --------------------------------------------------------------------


def test_drill_runs_are_stored_read_back_and_deleted(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as h:
        h.add_drill(DrillRecord("2025-03-01T09:00:00", "pauses", "p", score=0.4, extra={"a": 1}))
        h.add_drill(DrillRecord("2025-03-02T09:00:00", "pace", score=None, wpm=130.0))
        h.add_drill(DrillRecord("2025-03-03T09:00:00", "pauses", score=0.6))
        assert [r.score for r in h.drills("pauses")] == [0.4, 0.6]
        assert h.drills("pauses")[0].extra == {"a": 1} and h.drills()[1].wpm == 130.0
        h.delete_all()
        assert h.drills() == []
    with pytest.raises(OptionsError, match="between 0 and 1"):
        DrillRecord("2025-03-01T09:00:00", "pauses", score=1.5)


def test_a_version_1_history_gains_the_drills_table(tmp_path: Path) -> None:
    from coach.history import _SCHEMA_V1

    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(_SCHEMA_V1)
    conn.execute("INSERT INTO sessions (started, kind) VALUES ('2025-01-01T00:00:00', 'score')")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with History.open(path) as h:
        assert h.count() == 1 and h.drills() == []
        h.add_drill(DrillRecord("2025-03-01T09:00:00", "pace", score=0.5))
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    conn.close()


def _progress_text(h: History) -> str:
    out = io.StringIO()
    print_progress(h, Console(file=out, width=200))
    return out.getvalue()


def test_progress_shows_the_drills_and_suggests_one(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as h:
        h.add_drill(DrillRecord("2025-03-01T09:00:00", "pauses", score=0.3))
        h.add_drill(DrillRecord("2025-03-02T09:00:00", "pauses", score=0.55))
        h.add_drill(DrillRecord("2025-03-02T10:00:00", "pace", score=None))
        text = _progress_text(h)
        assert "No sessions yet" in text
        assert "pauses: 2 runs, last 55%, best 55%, first 30%" in text
        assert "pace: 1 run, none scored" in text
        assert "Suggested drill" not in text
        for day in (3, 4):
            h.add(SessionRecord(f"2025-03-0{day}T09:00:00", "score", duration_s=60.0,
                                wpm=140.0, fillers_per_min=6.0, long_pauses=0))  # fmt: skip
        text = _progress_text(h)
        assert "Drills" in text and "pauses: 2 runs" in text
        assert "Suggested drill: coach drill pauses (fillers averaged 6.0 per minute" in text
        from coach.progress import progress_html

        page = progress_html(h)
        assert "<h2>Drills</h2>" in page and "pauses: 2 runs, last 55%" in page
        assert "Suggested drill: coach drill pauses" in page
        assert "pace: 1 run" not in progress_html(h, kind="score")


def test_summary_line_of_a_drill() -> None:
    runs = [DrillRecord("2025-03-01T09:00:00", "opening", score=0.25),
            DrillRecord("2025-03-05T18:30:00", "opening", score=0.5)]  # fmt: skip
    (s,) = summarize(runs)
    assert summary_line(s) == (
        "opening: 2 runs, last 50%, best 50%, first 25% (last run 2025-03-05 18:30)"
    )


# --- the whole drill through the virtual mic, no models ---------------------------------------


class ManifestTranscriber:
    """A recogniser that reads a fixture's manifest: each utterance gets the words of the
    phrases (speech and fillers) whose middle falls in it, spread evenly over each phrase."""

    class options:  # noqa: N801 - as Transcriber.options
        model = "manifest"

    def __init__(self, name: str) -> None:
        self.segments = [s for s in manifest_entry(name)["segments"] if s["kind"] != "silence"]

    def transcribe(self, samples: np.ndarray, *, regions: Any = None,
                   offset_s: float = 0.0) -> list[Word]:  # fmt: skip
        a, b = offset_s, offset_s + samples.size / 16000
        out = []
        for s in self.segments:
            if not a <= (s["start_s"] + s["end_s"]) / 2 < b:
                continue
            tokens = s["text"].split()
            step = (s["end_s"] - s["start_s"]) / len(tokens)
            for i, t in enumerate(tokens):
                out.append(Word(t, s["start_s"] + i * step, s["start_s"] + (i + 0.9) * step))
        return out


def expected_pauses_drill(name: str) -> tuple[int, int, int, int]:
    """(in range, too long, beside a filler, fillers) of the pauses drill on a fixture, from
    its manifest: its silences between phrases and its fillers, by the drill's rule."""
    entry = manifest_entry(name)
    fillers = entry["fillers"]
    gaps = [s for s in entry["segments"]
            if s["kind"] == "silence" and s["position"] not in ("lead", "tail")]  # fmt: skip
    in_range = too_long = beside = 0
    for g in gaps:
        if g["duration_s"] < 0.3:
            continue
        if any(abs(f["start_s"] - g["end_s"]) <= 0.3 or abs(g["start_s"] - f["end_s"]) <= 0.3
               for f in fillers):  # fmt: skip
            beside += 1
        elif g["duration_s"] <= 1.5:
            in_range += 1
        else:
            too_long += 1
    return in_range, too_long, beside, len(fillers)


def test_pauses_drill_through_the_virtual_mic_scores_the_fixture(tmp_path: Path) -> None:
    name = "practice_talk.wav"
    in_range, too_long, beside, fillers = expected_pauses_drill(name)
    assert (in_range, too_long, beside, fillers) == (8, 3, 2, 6)  # the manifest, by hand
    voice = FileInput(fixture_path(name), [], realtime=False)
    folder = SessionFolder(tmp_path / "drill")
    result = run_drill(voice, ManifestTranscriber(name), DrillOptions("pauses"),  # type: ignore[arg-type]
                       folder=folder, prompt="a prompt", previous=[0.3])  # fmt: skip
    s = result.score
    assert (s.pauses_in_range, s.pauses_too_long, s.pauses_beside_fillers, s.fillers) == (
        in_range, too_long, beside, fillers,
    )  # fmt: skip
    assert s.score == pytest.approx(8 / 17, abs=1e-3)
    assert result.standing.change == pytest.approx(round(8 / 17 - 0.3, 3))
    saved = json.loads((folder.file("report.json")).read_text())
    assert saved["drill"] == "pauses" and saved["score"]["moments"] == 17
    assert (folder.file("talk.wav")).stat().st_size > 1_000_000
    rec = drill_record(result)
    assert rec.drill == "pauses" and rec.score == s.score and rec.fillers_per_min


def test_opening_drill_stops_60_s_after_the_first_word(tmp_path: Path) -> None:
    name = "practice_talk.wav"  # 48.6 s: shorter than the opening, so the input ends it
    voice = FileInput(fixture_path(name), [], realtime=False)
    result = run_drill(voice, ManifestTranscriber(name), DrillOptions("opening", length_s=20.0),  # type: ignore[arg-type]
                       folder=SessionFolder(tmp_path / "d"), prompt="p")  # fmt: skip
    assert result.ended_by == "20 s" and result.report.duration_s == pytest.approx(20.0, abs=0.05)
    assert [c.area for c in result.score.checks] == ["pace", "fillers", "pauses", "volume"]
    assert any("Score:" in line for line in result_lines(result))


def test_a_silent_drill_is_no_speech(tmp_path: Path) -> None:
    voice = FileInput(fixture_path("silence.wav"), [], realtime=False)
    with pytest.raises(NoSpeechError, match="no speech was heard"):
        run_drill(voice, ManifestTranscriber("silence.wav"), DrillOptions("pace"),  # type: ignore[arg-type]
                  folder=SessionFolder(tmp_path / "d"), prompt="p")  # fmt: skip


def test_result_lines_state_the_score_and_the_figures() -> None:
    r = report_with(fillers=[_filler("um", 65, 65.3)], pauses=[_pause(1, 1.5)])
    res = DrillResult("pauses", "p", Path("."), r, score_pauses(r), standing(0.5, [0.25]))
    lines = result_lines(res)
    assert lines[0] == (
        "Score: 50% of the moments you hesitated were silent pauses of 0.3-1.5 s (1 of 2)"
    )
    assert "Fillers left in: 1 (at 1:05)" in lines
    assert lines[-1].startswith("Against your earlier runs: +25 points")


# --- the command line ------------------------------------------------------------------------


def test_drill_bad_input_is_one_line_and_an_error_code(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "h.sqlite3")
    assert main(["drill", "pauses", "--input", str(tmp_path / "nope.wav"), "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coach: ") and err.count("\n") == 1 and "Traceback" not in err
    assert main(["drill", "pace", "--pace-band", "150", "100", "--db", db]) == 2
    assert "pace band" in capsys.readouterr().err
    wav = str(fixture_path("clean_sentence.wav"))
    assert main(["drill", "opening", "--prompt", "99", "--input", wav, "--db", db]) == 2
    assert "prompts 1 to" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["drill", "volume"])


@pytest.mark.models
def test_coach_drill_pauses_end_to_end(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "h.sqlite3"
    wav = str(fixture_path("practice_talk.wav"))
    args = ["drill", "pauses", "--input", wav, "--fast", "--db", str(db)]
    assert main([*args, "--save", str(tmp_path / "one")]) == 0
    out = capsys.readouterr().out
    assert "Score: " in out and "first scored run" in out
    saved = json.loads((tmp_path / "one" / "report.json").read_text())["score"]
    in_range, too_long, beside, fillers = expected_pauses_drill("practice_talk.wav")
    assert abs(saved["fillers"] - fillers) <= 1  # the recogniser may miss one
    assert abs(saved["pauses_in_range"] - in_range) <= 1
    assert abs(saved["pauses_too_long"] - too_long) <= 1
    assert saved["score"] == pytest.approx(in_range / (in_range + too_long + fillers), abs=0.1)
    assert main([*args, "--save", str(tmp_path / "two")]) == 0
    assert "points on the previous run" in capsys.readouterr().out
    with History.open(db) as h:
        assert [r.drill for r in h.drills()] == ["pauses", "pauses"]
        assert h.drills()[1].prompt == prompts_for("pauses").prompts[1]
    assert main(["progress", "--db", str(db)]) == 0
    assert "pauses: 2 runs" in capsys.readouterr().out


@pytest.mark.models
def test_coach_drill_pace_and_opening_end_to_end(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "h.sqlite3")
    wav = str(fixture_path("practice_talk.wav"))
    assert main(["drill", "pace", "--input", wav, "--fast", "--db", db,
                 "--pace-band", "100", "165", "--save", str(tmp_path / "pace")]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "of the 10 s windows inside 100-165 wpm" in out and "Band: --pace-band" in out
    score = json.loads((tmp_path / "pace" / "report.json").read_text())["score"]
    # 47.6 s of speech from the first word: four 10 s windows and one of 7.6 s
    assert len(score["windows"]) == 5 and 0.6 <= score["score"] <= 1.0
    assert main(["drill", "opening", "--input", wav, "--fast", "--db", db,
                 "--save", str(tmp_path / "opening")]) == 0  # fmt: skip
    checks = json.loads((tmp_path / "opening" / "report.json").read_text())["score"]["checks"]
    by = {c["area"]: c["passed"] for c in checks}
    # the fixture: 145 wpm, 6 fillers in 48 s, four pauses of 1.6-2 s
    assert by["pace"] is True and by["fillers"] is False and by["pauses"] is False
    with History.open(db) as h:
        assert [r.drill for r in h.drills()] == ["pace", "opening"]


# --- again -----------------------------------------------------------------------------------


def _w(text: str, a: float, b: float, filler: bool = False) -> dict[str, Any]:
    return {"text": text, "start_s": a, "end_s": b, "filler": filler, "probability": 1.0}


TALK = {
    "words": [
        _w("Hello", 0.0, 0.4), _w("there", 0.5, 0.9), _w("everyone.", 1.0, 1.5),
        _w("Um,", 2.0, 2.3, True), _w("we,", 2.4, 2.6), _w("uh,", 2.8, 3.0, True),
        _w("merged", 3.1, 3.5), _w("it.", 3.6, 4.0),
        _w("It", 5.0, 5.3), _w("broke", 5.4, 6.0), _w("twice.", 7.8, 9.0),
        _w("Fine.", 10.0, 10.5),
    ],
    "fillers": {"items": [{"text": "um", "start_s": 2.0, "end_s": 2.3},
                          {"text": "uh", "start_s": 2.8, "end_s": 3.0}]},
    "pauses": {"items": [{"start_s": 6.0, "end_s": 7.8, "position": "within_clause",
                          "long": True}]},
    "energy": {"trail_offs": [{"start_s": 7.8, "end_s": 9.0, "drop_db": 7.0},
                              {"start_s": 10.0, "end_s": 10.5, "drop_db": 9.0}]},
}  # fmt: skip
"""Four sentences: none flagged; two fillers; a long pause and a trail-off; a trail-off."""


def test_again_picks_the_sentences_with_the_most_flagged_moments() -> None:
    from coach.drills.again import flagged_sentences, sentences

    assert [s[1] for s in sentences(TALK)][1] == "Um, we, uh, merged it."
    two = flagged_sentences(TALK, n=2)
    assert [(s.index, s.flags) for s in two] == [(2, 2), (3, 2)]
    assert two[0].figures == {"fillers": 2.0, "long_pauses": 0.0, "trail_offs": 0.0, "wpm": None}
    assert two[1].figures["long_pauses"] == 1.0 and two[1].figures["trail_offs"] == 1.0
    assert [s.index for s in flagged_sentences(TALK, n=5)] == [2, 3, 4]
    with pytest.raises(OptionsError):
        flagged_sentences(TALK, n=0)


def test_again_compares_figure_by_figure_and_scores_the_moments_gone() -> None:
    from coach.drills.again import Retake, again_lines, compare, flagged_sentences, score_again

    s2, s3 = flagged_sentences(TALK, n=2)
    after2 = {"fillers": 0.0, "long_pauses": 0.0, "trail_offs": 0.0, "wpm": 150.0}
    after3 = {"fillers": 1.0, "long_pauses": 1.0, "trail_offs": 1.0, "wpm": None}
    changes = compare(s2.figures, after2)
    assert [(c.figure, c.verdict) for c in changes] == [
        ("fillers", "better"), ("long_pauses", "same"), ("trail_offs", "same"), ("wpm", "n/a"),
    ]  # fmt: skip
    assert compare({"wpm": 180.0}, {"wpm": 150.0})[-1].verdict == "slower"
    assert compare({"wpm": 150.0}, {"wpm": 153.0})[-1].verdict == "same"
    assert [c.verdict for c in compare(s3.figures, after3)][:3] == ["worse", "same", "same"]
    score = score_again([Retake(s2, "we merged it", "a.wav", after2, 0, changes),
                         Retake(s3, "it broke twice", "b.wav", after3, 3,
                                compare(s3.figures, after3))])  # fmt: skip
    assert (score.score, score.flags_before, score.flags_after) == (0.5, 4, 3)
    lines = again_lines(score)
    assert lines[0].startswith("Score: 50% of the flagged moments were gone")
    assert lines[1] == '1. sentence 2 of the talk, at 0:02: "Um, we, uh, merged it."'
    assert lines[3] == "   fillers 2 -> 0 better"
    assert score_again([]).score is None


def test_again_needs_a_session_with_a_talk(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from coach.drills.again import last_session, load_session

    with pytest.raises(OptionsError, match="not a session folder"):
        load_session(tmp_path)
    with History.open(tmp_path / "h.sqlite3") as h:
        with pytest.raises(OptionsError, match="coach rehearse"):
            last_session(h)
        folder = tmp_path / "s"
        folder.mkdir()
        (folder / "talk.wav").write_bytes(b"")
        (folder / "report.json").write_text(json.dumps({"talk": TALK}))
        h.add_drill(DrillRecord("2025-03-01T09:00:00", "pauses", folder=str(folder)))
        h.add_drill(DrillRecord("2025-03-02T09:00:00", "pace", folder=str(tmp_path / "gone")))
        assert last_session(h) == folder
    assert load_session(folder)["words"][0]["text"] == "Hello"
    db = str(tmp_path / "h.sqlite3")
    assert main(["drill", "again", "--session", str(tmp_path), "--db", db]) == 2
    assert main(["drill", "again", "--input", "x.wav", "--db", db]) == 2
    err = capsys.readouterr().err
    assert "not a session folder" in err and "--retakes" in err and "Traceback" not in err


def _retakes_from(source: Path, sentences: list[Any], out: Path) -> list[Path]:
    """Each sentence cut from the talk's recording, with its fillers replaced by silence and
    any silence over 0.6 s cut to 0.6 s: the sentence said again without them."""
    import soundfile as sf

    talk = json.loads((source / "report.json").read_text())["talk"]
    audio, rate = sf.read(source / "talk.wav", dtype="int16")
    paths = []
    for i, s in enumerate(sentences, 1):
        a, b = int((s.start_s - 0.3) * rate), int((s.end_s + 0.3) * rate)
        clip = audio[a:b].copy()
        for f in talk["fillers"]["items"]:
            if s.start_s - 0.05 <= f["start_s"] < s.end_s + 0.05:
                clip[max(0, int(f["start_s"] * rate) - a) : int(f["end_s"] * rate) - a] = 0
        keep = np.ones(clip.size, bool)
        quiet = np.abs(clip.astype(np.int32)) < 30
        run = 0
        for j, q in enumerate(quiet):
            run = run + 1 if q else 0
            if run > 0.6 * rate:
                keep[j] = False
        path = out / f"retake_{i}.wav"
        sf.write(path, clip[keep], rate, subtype="PCM_16")
        paths.append(path)
    return paths


@pytest.mark.models
def test_coach_drill_again_end_to_end(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import soundfile as sf

    from coach.drills.again import flagged_sentences

    db = str(tmp_path / "h.sqlite3")
    source = tmp_path / "source"
    wav = str(fixture_path("practice_talk.wav"))
    assert main(["drill", "pauses", "--input", wav, "--fast", "--db", db,
                 "--save", str(source)]) == 0  # fmt: skip
    talk = json.loads((source / "report.json").read_text())["talk"]
    picked = flagged_sentences(talk, n=2)
    assert len(picked) == 2 and any(s.figures["fillers"] for s in picked)
    retakes = _retakes_from(source, picked, tmp_path)
    played = tmp_path / "played.wav"
    capsys.readouterr()
    args = ["drill", "again", "--sentences", "2", "--retakes", *map(str, retakes), "--fast",
            "--speak-to", str(played), "--db", db, "--save", str(tmp_path / "again")]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Score: " in out and "fillers" in out
    score = json.loads((tmp_path / "again" / "report.json").read_text())["score"]
    assert score["source"] == str(source)  # the last drill with a talk, from the history
    assert len(score["retakes"]) == 2
    for r in score["retakes"]:
        if r["sentence"]["figures"]["fillers"]:
            assert r["figures"]["fillers"] == 0  # the filler was replaced by silence
    assert score["score"] > 0
    spans = sum(s.end_s - s.start_s + 0.3 for s in picked)
    assert sf.info(played).duration == pytest.approx(spans, abs=0.1)
    with History.open(db) as h:
        assert [r.drill for r in h.drills()] == ["pauses", "again"]


def test_pace_drill_shows_a_live_needle_in_the_band(tmp_path: Path) -> None:
    from coach.analysis.pace import PaceOptions
    from coach.live.recorder import LiveOptions
    from coach.score import ScoreOptions

    name = "practice_talk.wav"
    shown: list[Any] = []

    def show(status):  # type: ignore[no-untyped-def]
        shown.append(status)
        return lambda: None

    live = LiveOptions(score=ScoreOptions(pace=PaceOptions(band_wpm=(120.0, 150.0))),
                       recent_window_s=10.0, min_recent_words=4)  # fmt: skip
    result = run_drill(FileInput(fixture_path(name), [], realtime=False),
                       ManifestTranscriber(name), DrillOptions("pace", live=live),  # type: ignore[arg-type]
                       folder=SessionFolder(tmp_path / "d"), prompt="p", show=show)  # fmt: skip
    (status,) = shown
    needle = status().nudge  # over the last 10 s, once every utterance is transcribed
    assert needle is not None and needle.startswith("slow ") and "(band 120-150)" in needle
    assert "●" in needle
    assert result.score.band_wpm == (120.0, 150.0) and len(result.score.windows) == 5
