"""Live capture: the talk recorder fed through the virtual mic, with a scripted recogniser
built from the fixture manifest (no models) and once with the real tiny.en."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import soundfile as sf
from conftest import ManifestTranscriber

from coach.asr import AsrOptions
from coach.live.recorder import LiveOptions, TalkRecorder
from coach.stream import file_frames

FIXTURES = Path(__file__).resolve().parent.parent / "audio_fixtures"
TALK = FIXTURES / "practice_talk.wav"
ENTRY = json.loads((FIXTURES / "manifest.json").read_text())["fixtures"]["practice_talk.wav"]


ScriptedTranscriber = ManifestTranscriber


class TimedTranscriber(ManifestTranscriber):
    """The scripted recogniser taking 5 ms a call, as a real one takes time: the part of
    its work after the talk ended is then at least that, not a few microseconds that the
    report's millisecond rounding could make 0.0 (it did once in CI, under load)."""

    def transcribe(self, samples, *, regions=None, offset_s: float = 0.0):  # type: ignore[no-untyped-def]
        time.sleep(0.005)
        return super().transcribe(samples, regions=regions, offset_s=offset_s)


def _run(recorder: TalkRecorder, until_s: float | None = None) -> None:
    for frame in file_frames(TALK, realtime=False):
        if until_s is not None and frame.start_s >= until_s:
            break
        recorder.feed(frame)


def test_live_report_matches_the_script(tmp_path: Path) -> None:
    asr = TimedTranscriber()
    rec = TalkRecorder(asr, LiveOptions(), wav_path=tmp_path / "talk.wav")  # type: ignore[arg-type]
    _run(rec)
    report = rec.finish(file="talk")
    expected = ENTRY["expected"]
    assert report.error is None
    assert report.word_count == expected["lexical_words"]
    assert report.fillers.filled_pauses == expected["filled_pauses"]
    assert report.fillers.discourse == expected["discourse_fillers"]
    assert report.pauses.long_count == expected["long_pauses"]
    assert report.duration_s == pytest.approx(ENTRY["duration_s"], abs=0.03)
    # utterances were transcribed one by one, and every word came through exactly once
    assert len(asr.calls) >= 4
    assert len(report.words) == len(asr.words)
    # what the end of the talk waited for: the last utterance (still open when the input
    # ended) and the last feature block, a part of all the recogniser's and tracks' time
    t = report.timings_s
    assert 0 < t["after_end_asr_s"] <= t["asr_s"]
    assert 0 < t["after_end_features_s"] <= t["features_s"]
    # the recording was written as it went
    info = sf.info(str(tmp_path / "talk.wav"))
    assert info.samplerate == 16000 and info.frames / 16000 == pytest.approx(48.57, abs=0.03)


def test_live_status_while_talking() -> None:
    rec = TalkRecorder(ScriptedTranscriber(), LiveOptions())  # type: ignore[arg-type]
    _run(rec, until_s=30.0)
    import time

    deadline = time.monotonic() + 120  # a bound for a stuck transcriber, not a speed
    while rec.status().pending_s > 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    st = rec.status()
    assert st.elapsed_s == pytest.approx(30.0, abs=0.05)
    assert st.words > 40
    assert st.fillers >= 2  # "um" at 11.3 s and "you know" at 18.6 s
    assert st.last_long_pause is not None
    a, b = st.last_long_pause  # the 2.0 s pause after "clearly worth it." (24.3-26.3 s)
    assert a == pytest.approx(24.3, abs=0.15) and b == pytest.approx(26.3, abs=0.15)
    assert st.recent_wpm is not None and 100 < st.recent_wpm < 200
    rec.close()


def test_stopping_mid_talk_keeps_what_was_said(tmp_path: Path) -> None:
    """Ctrl-C or a vanished device: finish() on what arrived so far."""
    rec = TalkRecorder(ScriptedTranscriber(), LiveOptions(), wav_path=tmp_path / "t.wav")  # type: ignore[arg-type]
    _run(rec, until_s=20.0)
    report = rec.finish(file="half")
    assert report.error is None
    assert report.duration_s == pytest.approx(20.0, abs=0.05)
    assert 40 <= report.word_count <= 60
    assert sf.info(str(tmp_path / "t.wav")).frames / 16000 == pytest.approx(20.0, abs=0.05)


@pytest.mark.models
def test_live_with_tiny_en_matches_offline_scoring() -> None:
    from coach.asr import Transcriber
    from coach.score import score_file

    t = Transcriber.load(AsrOptions())
    rec = TalkRecorder(t, LiveOptions())
    _run(rec)
    live = rec.finish(file=str(TALK))
    offline = score_file(TALK, t)
    assert live.error is None
    assert abs(live.word_count - offline.word_count) <= 5
    assert abs(live.pace.wpm - offline.pace.wpm) <= 10
    assert live.pauses.long_count == offline.pauses.long_count


class _Rewriting(ManifestTranscriber):
    """A second recogniser that writes the script's words otherwise (:meth:`rewrite`)."""

    def rewrite(self, i: int, text: str) -> str:
        """The ``i``-th word of an utterance as this recogniser writes it."""
        raise NotImplementedError

    def transcribe(self, samples, *, regions=None, offset_s=0.0):  # type: ignore[no-untyped-def]
        from coach.transcript import Word

        words = super().transcribe(samples, regions=regions, offset_s=offset_s)
        return [Word(self.rewrite(i, w.text), w.start_s, w.end_s) for i, w in enumerate(words)]


class _Louder(_Rewriting):
    """Every word in capitals (to tell its words apart)."""

    def rewrite(self, i: int, text: str) -> str:
        return text.upper()


def test_the_audience_hears_the_talk_again_with_its_own_recogniser() -> None:
    live, ear = ScriptedTranscriber(), _Louder()
    rec = TalkRecorder(live, LiveOptions(), ear=lambda: ear)  # type: ignore[arg-type]
    _run(rec)
    report = rec.finish(file="talk")
    heard = rec.heard_text(wait_s=10.0)
    # the report keeps the live words; the audience gets the second recogniser's
    assert report.transcript == report.transcript.strip() and not report.transcript.isupper()
    assert heard == heard.upper() and len(heard.split()) == len(live.words)
    assert len(ear.calls) == len(rec.utterances)


class _MishearsFirst(_Rewriting):
    """The first word of every utterance written otherwise."""

    def rewrite(self, i: int, text: str) -> str:
        return "Zork" if i == 0 else text


def _heard_again(ear: _Rewriting) -> TalkRecorder:
    """The practice talk recorded live and heard again by ``ear``, to the end."""
    rec = TalkRecorder(ScriptedTranscriber(), LiveOptions(), ear=lambda: ear)  # type: ignore[arg-type]
    _run(rec)
    rec.finish(file="talk")
    rec.heard_text(wait_s=10.0)
    return rec


def test_words_the_two_recognisers_wrote_otherwise_are_disputed() -> None:
    ear = _MishearsFirst()
    rec = _heard_again(ear)
    disputed = rec.disputed()
    assert ear.calls and len(disputed) == len(rec.utterances)
    assert all(word == "Zork" and before == "" for before, word, _after in disputed)


def test_the_same_words_in_other_letters_are_not_disputed() -> None:
    assert _heard_again(_Louder()).disputed() == []


def test_utterances_the_ear_has_not_heard_are_quoted_as_heard_live() -> None:
    live = ScriptedTranscriber()
    rec = TalkRecorder(live, LiveOptions(), ear=lambda: None)  # type: ignore[arg-type]
    _run(rec)
    rec.finish(file="talk")
    assert rec.heard_text(wait_s=2.0) == " ".join(w.text for w in live.words)


def test_the_quick_recogniser_hears_the_utterances_it_is_offered_for() -> None:
    live, quick = ScriptedTranscriber(), _Louder()
    offered = iter([quick, None] * 100)  # the cores free for every other utterance
    rec = TalkRecorder(live, LiveOptions(), quick=lambda: next(offered))  # type: ignore[arg-type]
    _run(rec)
    report = rec.finish(file="talk")
    n = len(rec.utterances)
    assert n >= 2 and rec.quick_utterances == len(quick.calls) == (n + 1) // 2
    assert len(live.calls) == n // 2
    # its words are the report's, as the live recogniser's would be
    loud = [w for w in report.transcript.split() if w.isupper() and len(w) > 1]
    assert loud and len(report.transcript.split()) == len(live.words)
