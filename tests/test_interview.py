"""The interview on the conversation engine: with fakes (no models), scenarios, the CLI and
the history; and end to end with the real default models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, ManifestTranscriber, ScriptedLlm, manifest_entry
from helpers import FakeVoice

from coach.asr import AsrOptions
from coach.cli import main
from coach.history import History
from coach.interview import load_scenario
from coach.interview.interviewer import Interview, Interviewer, InterviewOptions, practice_next
from coach.live.events import QuietEvents
from coach.live.folder import SessionFolder
from coach.live.inputs import FileInput
from coach.live.models import Models
from coach.live.options import RehearseOptions
from coach.live.rehearsal import ACKS
from coach.sinks import WavSink
from coach.tts import Speaker, TtsOptions

ANSWERS = [FIXTURES / f"interview/answer_{i:02d}.wav" for i in range(1, 9)]


class Script(QuietEvents):
    """Switches the scripted recogniser to each answer's manifest entry."""

    def __init__(self, asr: ManifestTranscriber, answers: list[Path]) -> None:
        super().__init__()
        self.asr, self.answers = asr, answers

    def phase(self, name, status, prompt=""):  # type: ignore[no-untyped-def]
        super().phase(name, status, prompt)
        if name.startswith("answer "):
            self.asr.use(str(self.answers[int(name.split()[1]) - 1].relative_to(FIXTURES)))


def run_interview(tmp_path: Path, answers: list[Path], *, llm=None, scenario=None, **opts):  # type: ignore[no-untyped-def]
    asr = ManifestTranscriber("interview/answer_01.wav")
    speaker = Speaker(FakeVoice(), TtsOptions(sentence_silence_s=0.0))
    models = Models(AsrOptions(), None, None, transcriber=asr, chat=llm,  # type: ignore[arg-type]
                    speaker=speaker, lines=ACKS)  # fmt: skip
    folder = SessionFolder(tmp_path / "iv")
    options = InterviewOptions(role="junior data analyst", **opts)
    session = Interview(
        FileInput(None, answers, realtime=False), models, WavSink(folder.file("audience.wav")),
        folder, RehearseOptions(), events=Script(asr, answers),
        make_interviewer=lambda chat: Interviewer(chat, options, scenario=scenario),
    )  # fmt: skip
    session.run()
    return session


def test_interview_from_the_banks_without_a_model(tmp_path: Path) -> None:
    """Opener, behavioural and role questions, closing; vague answers get follow-ups.

    The recordings answer in their own order, so some answers miss their question and get
    a follow-up too: the recordings are given twice, so the closing still has one."""
    session = run_interview(tmp_path, ANSWERS * 2, questions=6)
    res = session.result
    assert res.status == "complete", res.notes
    stages = [e.question.stage for e in res.exchanges]
    assert stages[0] == "opener" and stages[-1] == "closing"
    assert {"behavioral", "technical"} <= set(stages)
    assert all(e.question.source == "bank" for e in res.exchanges)
    # every vague behavioural or role answer (not itself a follow-up) got a follow-up
    for i, e in enumerate(res.exchanges[:-1]):
        if e.feedback.vague and e.question.stage in ("behavioral", "technical") and \
                e.question.kind == "question":  # fmt: skip
            assert res.exchanges[i + 1].question.kind == "follow_up", (i, e.question.text)
    assert any(e.question.kind == "follow_up" for e in res.exchanges)
    # the closing: the candidate's question was answered in role, then the goodbye
    closing = res.exchanges[-1]
    assert closing.question.stage == "closing" and closing.reply
    assert "?" not in closing.reply
    # feedback per answer and the three things to practise
    assert all(e.feedback is not None for e in res.exchanges)
    assert 1 <= len(res.practice) <= 3
    report = json.loads(session.folder.file("report.json").read_text())
    assert report["kind"] == "interview" and report["practice"] == res.practice
    assert report["qa"][1]["feedback"]["star"][0]["name"] == "situation"
    html = session.folder.file("report.html").read_text()
    assert "What to practise next" in html and "Feedback per answer" in html


def test_feedback_never_claims_feelings(tmp_path: Path) -> None:
    res = run_interview(tmp_path, ANSWERS, questions=6).result
    text = json.dumps([e.to_dict() for e in res.exchanges]) + " ".join(res.practice)
    for word in ("nervous", "anxious", "confident", "scared", "uncomfortable", "excited"):
        assert word not in text.lower()


def test_llm_adapts_questions_and_never_answers_them(tmp_path: Path) -> None:
    replies = [
        json.dumps({"question": q})
        for q in (
            "So, tell me about your story so far, where you started and where you are now?",
            "Tell me about a time you and a group delivered something together. What did you "
            "do? I think teamwork is great.",  # a second question and an answer: cut
            "Which tools do you reach for first as an analyst, and why?",
        )
    ] + [json.dumps({"question": "What exactly did you do, and what was the result?"})] * 8
    llm = ScriptedLlm(replies)
    res = run_interview(tmp_path, ANSWERS[:4], llm=llm, questions=4, llm_wording=True).result
    spoken = [e.question.spoken_text for e in res.exchanges]
    for e in res.exchanges:  # the LLM's questions: one, ending the turn; else the bank's
        text = e.question.spoken_text
        assert e.question.source == "bank" or (text.count("?") == 1 and text.endswith("?"))
    assert not any("teamwork is great" in s for s in spoken)
    assert any(e.question.source == "llm" for e in res.exchanges)


def test_scenario_networking_runs_on_the_same_engine(tmp_path: Path) -> None:
    scenario = load_scenario("networking")
    res = run_interview(tmp_path, ANSWERS[:5], scenario=scenario, questions=4).result
    assert res.exchanges and res.exchanges[0].question.text == scenario.plan(4)[0].text
    assert res.status == "complete"


def test_practice_next_states_measured_facts(tmp_path: Path) -> None:
    res = run_interview(tmp_path, ANSWERS, questions=6).result
    lines = practice_next(res.exchanges)
    assert lines and all(any(ch.isdigit() for ch in line) for line in lines)


def test_practice_next_honours_the_pace_band(tmp_path: Path) -> None:
    res = run_interview(tmp_path, ANSWERS, questions=6).result
    paces = [e.answer.pace.wpm for e in res.exchanges if e.answer and e.answer.pace.wpm]
    mean = sum(paces) / len(paces)
    slow = practice_next(res.exchanges, limit=9, band_wpm=(mean + 20, mean + 80))
    assert any(f"slow against {mean + 20:.0f}-{mean + 80:.0f}" in line for line in slow)
    inside = practice_next(res.exchanges, limit=9, band_wpm=(mean - 20, mean + 20))
    assert not any(line.startswith("Pace:") for line in inside)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["interview"], "give the role"),
        (["interview", "--role", "analyst", "--scenario", "nope"], "nope"),
        (["interview", "--role", "analyst", "--fast"], "--fast needs --answers"),
        (["interview", "--role", "analyst", "--persona", " "], "persona"),
        (["interview", "--role", "analyst", "--answers", "missing.wav"], "missing.wav"),
        (["progress", "--delete", "99"], "no session 99"),
        (["progress", "--delete-all"], "--yes"),
    ],
)
def test_cli_errors_are_one_line(capsys, tmp_path: Path, argv, needle) -> None:  # type: ignore[no-untyped-def]
    code = main([*argv, "--db", str(tmp_path / "h.sqlite3")])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in err


def test_progress_cli_prints_exports_and_deletes(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from coach.history import SessionRecord

    db = tmp_path / "h.sqlite3"
    with History.open(db) as h:
        for i, (wpm, fpm) in enumerate([(190, 6.0), (170, 4.0), (150, 2.0)]):
            h.add(SessionRecord(started=f"2026-11-0{i + 1}T10:00:00", kind="score",
                                wpm=wpm, fillers_per_min=fpm, duration_s=60.0))  # fmt: skip
    assert main(["progress", "--db", str(db), "--html", str(tmp_path / "p.html")]) == 0
    out = capsys.readouterr().out
    assert "Fillers" in out or "fillers" in out
    assert "<svg" in (tmp_path / "p.html").read_text()
    assert main(["progress", "--db", str(db), "--export", "json"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert len(exported) == 3
    assert main(["progress", "--db", str(db), "--delete", str(exported[0]["id"])]) == 0
    assert main(["progress", "--db", str(db), "--delete-all", "--yes"]) == 0
    with History.open(db) as h:
        assert h.count() == 0


@pytest.mark.models
def test_interview_end_to_end_with_the_default_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`coach interview` through the virtual mic with tiny.en, the GGUF and Piper; the
    session is recorded and the next interview leans toward the weakest question types."""
    import numpy as np

    import coach.sinks
    from coach.asr import Transcriber
    from coach.audio import load
    from coach.transcript import tokens

    sinks: list[coach.sinks.WavSink] = []
    opened = coach.sinks.WavSink.__init__

    def keep(self: coach.sinks.WavSink, *a: object, **k: object) -> None:
        opened(self, *a, **k)  # type: ignore[arg-type]
        sinks.append(self)

    monkeypatch.setattr(coach.sinks.WavSink, "__init__", keep)
    db, save, speech = tmp_path / "h.sqlite3", tmp_path / "s1", tmp_path / "iv.wav"
    args = ["interview", "--role", "junior data analyst", "--answers", *map(str, ANSWERS),
            "--fast", "--questions", "5", "--db", str(db), "--speak-to", str(speech)]  # fmt: skip
    assert main([*args, "--save", str(save)]) == 0
    report = json.loads((save / "report.json").read_text())
    assert report["kind"] == "interview" and report["status"] == "complete"
    qa = report["qa"]
    assert qa[0]["question"]["stage"] == "opener"
    assert all(e["feedback"] is not None for e in qa)
    assert report["practice"]
    # each question was spoken (the sink wrote it) and is heard: recognised in its own
    # stretch of the wav and in the whole file (tiny.en drops words of Piper's speech now
    # in one, now in the other: "say SQL. Hi, then, our spreadsheet")
    segments = [seg for k in sinks if k.path == speech for seg in k.segments]
    audio, asr = load(speech), Transcriber.load(AsrOptions())
    whole = set(tokens(" ".join(w.text for w in asr.transcribe(audio))))
    for e in qa:
        text = e["question"]["text"]
        spans = [(a, b) for t, a, b in segments if t.strip() and t.strip() in text]
        assert spans, f"never spoken: {text}"
        clip = np.concatenate([audio[int(a * 16000) : int(b * 16000)] for a, b in spans])
        heard = whole | set(tokens(" ".join(w.text for w in asr.transcribe(clip))))
        words = [t for t in tokens(text) if len(t) > 3]
        assert sum(t in heard for t in words) >= 0.6 * len(words), (text, sorted(heard))
    with History.open(db) as h:
        sessions = h.sessions(kind="interview")
        assert len(sessions) == 1 and len(sessions[0].answers) == len(qa)
        weakest = h.question_type_scores("interview")
    assert weakest
    # the second interview says which types it starts with (when any scored low)
    assert main([*args, "--save", str(tmp_path / "s2"), "--questions", "3"]) == 0
    second = json.loads((tmp_path / "s2" / "report.json").read_text())
    low = [t for t, v in weakest.items() if v < 0.75]
    if low:
        assert second["context"]["prefer_types"][0] == low[0]
        assert "scored lowest" in second["context"]["leaning"]


def test_manifest_labels_are_consistent() -> None:
    entry = manifest_entry("interview/answer_03.wav")
    assert entry["vague"] is True


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Tell me about a time you failed.", True),
        ("What metrics matter when you test a new feature?", True),
        ("How did the candidate implement it?", False),
        ("Sure, here is the question: what is SQL?", False),
        ("I worked on a project that did not go to plan. What did it involve?", False),
    ],
)
def test_check_in_role(text: str, ok: bool) -> None:
    from coach.interview.interviewer import check_in_role

    assert (check_in_role(text) is None) is ok


def test_every_bank_line_is_in_role() -> None:
    from coach.interview import builtin_banks
    from coach.interview.interviewer import check_in_role

    for bank in builtin_banks():
        for q in bank.questions:
            for text in (q.text, *q.follow_ups):
                assert check_in_role(text) is None, (bank.name, text)
