"""Shared helpers: transcript builders and the generated audio fixtures.

Nothing here loads a model. The fixtures in audio_fixtures/ come from
scripts/make_fixtures.py, which also writes audio_fixtures/manifest.json.

A test marked ``models`` needs the default models; it is skipped, saying which are
missing and what fetches them, when they are not installed (``$COACH_MODELS_DIR`` points
elsewhere to try that). Mark each test that loads a model, never a whole module, so
``make test-fast`` (``-m "not models"``) still runs the module's other tests.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from coach.transcript import Word

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "audio_fixtures"
"""Folder of the generated audio fixtures."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "devices: plays and records through PortAudio and a private PulseAudio with null "
        "sinks (skips, saying why, when PulseAudio or the ALSA pulse plugin is missing)",
    )


@cache
def missing_models() -> str:
    """Why the default models cannot be used: '' when every one is installed."""
    from coach import models
    from coach.errors import CoachError

    try:
        specs = models.load_manifest()
    except CoachError as exc:
        return f"cannot read the model manifest: {exc}"
    missing = []
    for name, spec in specs.items():
        if not spec.default:
            continue
        try:
            models.installed_path(name)
        except CoachError:
            missing.append(name)
    if not missing:
        return ""
    return (
        f"needs the default models; not installed in {models.models_dir()}: "
        f"{', '.join(missing)} (run `make models`)"
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip a test marked ``models`` when the default models are not installed."""
    if item.get_closest_marker("models") is not None and (why := missing_models()):
        pytest.skip(why)


@pytest.fixture(autouse=True)
def _private_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sessions and the practice history go to a temporary folder, never the user's."""
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path_factory.mktemp("coach-data")))


def words(*items: tuple[str, float, float]) -> list[Word]:
    """Words from ``(text, start_s, end_s)`` tuples."""
    return [Word(text, start, end) for text, start, end in items]


def spaced(
    text: str, *, start_s: float = 0.0, step_s: float = 0.3, dur_s: float = 0.25
) -> list[Word]:
    """Words of ``text`` (split on spaces), one every ``step_s`` seconds, ``dur_s`` long."""
    return [
        Word(tok, round(start_s + i * step_s, 3), round(start_s + i * step_s + dur_s, 3))
        for i, tok in enumerate(text.split())
    ]


def fixture_path(name: str) -> Path:
    """Path of a generated fixture; fails with what to run if it is missing."""
    path = FIXTURES / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run `.venv/bin/python scripts/make_fixtures.py`")
    return path


@cache
def _manifest() -> dict[str, Any]:
    return json.loads(fixture_path("manifest.json").read_text())


@cache
def generator() -> ModuleType:
    """scripts/make_fixtures.py imported (not run; Piper is needed only to synthesise): the
    data the fixtures were made from, to check the manifest against instead of retyping it."""
    path = ROOT / "scripts" / "make_fixtures.py"
    spec = importlib.util.spec_from_file_location("make_fixtures", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while defined
    spec.loader.exec_module(module)
    return module


SILENCE_DB = -40.0
"""A 10 ms frame whose RMS is at or below this (dBFS) counts as silence."""
FRAME = 160
"""10 ms at 16 kHz."""


def frame_db(x: Any) -> Any:
    """RMS level of each 10 ms frame of 16 kHz float audio, dBFS."""
    import numpy as np

    n = x.size // FRAME
    frames = x[: n * FRAME].reshape(n, FRAME)
    return 20 * np.log10(np.maximum(np.sqrt((frames**2).mean(axis=1)), 1e-9))


def longest_run(mask: Any) -> int:
    """Length of the longest run of True in a boolean sequence."""
    best = cur = 0
    for v in mask:
        cur = cur + 1 if v else 0
        best = max(best, cur)
    return best


def check_answer_recording(name: str, length_s: tuple[float, float]) -> None:
    """An answer recording agrees with its manifest entry: format, length within
    ``length_s``, and segments that tile the clip and hold its text."""
    import soundfile as sf

    entry = manifest_entry(name)
    info = sf.info(str(fixture_path(name)))
    assert info.samplerate == 16000 == entry["sample_rate_hz"]
    assert info.channels == 1 == entry["channels"]
    assert info.subtype == "PCM_16"
    assert info.frames == entry["samples"]
    assert abs(info.duration - entry["duration_s"]) <= 0.01
    low, high = length_s
    assert low <= info.duration <= high
    segs = entry["segments"]
    gaps = generator().ANSWER_GAP_S
    assert segs[0]["position"] == "lead" and segs[0]["duration_s"] == pytest.approx(gaps["lead"])
    assert segs[-1]["position"] == "tail" and segs[-1]["duration_s"] >= gaps["tail"]
    assert sum(s["duration_s"] for s in segs) == pytest.approx(entry["duration_s"], abs=1e-4)
    spoken = [s["text"] for s in segs if s["kind"] != "silence"]
    assert " ".join(spoken) == entry["text"]
    lexical = sum(s["tokens"] for s in segs if s["kind"] == "speech")
    assert lexical == entry["expected"]["lexical_words"]


def check_no_inner_silence(name: str) -> None:
    """Lead and tail silences are there, and no silence between them reaches the
    generator's ``ANSWER_MAX_SILENCE_S`` (the live endpointer would end the answer there),
    measured on the audio and in the manifest."""
    import numpy as np
    import soundfile as sf

    gen = generator()
    max_silence_s = gen.ANSWER_MAX_SILENCE_S
    entry = manifest_entry(name)
    x, rate = sf.read(str(fixture_path(name)), dtype="float64")
    assert rate == 16000
    db = frame_db(x)
    loud = np.flatnonzero(db > SILENCE_DB)
    first, last = int(loud[0]), int(loud[-1]) + 1
    assert first * FRAME / rate >= gen.ANSWER_GAP_S["lead"] - 1e-9
    assert (db.size - last) * FRAME / rate >= gen.ANSWER_GAP_S["tail"] - 1e-9
    longest = longest_run(db[first:last] <= SILENCE_DB) * FRAME / rate
    assert longest < max_silence_s, f"{name}: {longest:.2f} s of silence inside"
    inner = [s for s in entry["segments"][1:-1] if s["kind"] == "silence"]
    assert all(s["duration_s"] < max_silence_s for s in inner)


def manifest() -> dict[str, Any]:
    """The whole fixture manifest."""
    return _manifest()


def manifest_entry(name: str) -> dict[str, Any]:
    """The manifest's entry for one fixture file."""
    return _manifest()["fixtures"][name]


class ManifestTranscriber:
    """A recogniser that knows the script: returns the words of a manifest entry whose
    times fall inside the audio it is given (no model). :meth:`use` switches the entry,
    for a session that records the talk and then each answer from time 0."""

    from coach.asr import AsrOptions

    options = AsrOptions(model="scripted")

    def __init__(self, name: str = "practice_talk.wav") -> None:
        self.calls: list[tuple[float, float]] = []
        self.use(name)

    def use(self, name: str) -> None:
        """Answer from the manifest entry of fixture ``name`` from now on."""
        self.words: list[Word] = []
        for seg in manifest_entry(name)["segments"]:
            if seg["kind"] == "silence":
                continue
            toks = seg["text"].split()
            step = (seg["end_s"] - seg["start_s"]) / len(toks)
            for i, tok in enumerate(toks):
                a = seg["start_s"] + i * step
                self.words.append(Word(tok, round(a, 3), round(a + step * 0.9, 3)))

    def transcribe(self, samples: Any, *, regions: Any = None, offset_s: float = 0.0) -> list[Word]:
        end = offset_s + samples.size / 16000
        self.calls.append((offset_s, end))
        return [w for w in self.words if offset_s <= (w.start_s + w.end_s) / 2 < end]


class ScriptedLlm:
    """A chat model that streams replies from a list in small pieces, recording prompts."""

    def __init__(self, replies: list[str], piece_chars: int = 3) -> None:
        self.replies = list(replies)
        self.prompts: list[list[dict[str, str]]] = []
        self.piece_chars = piece_chars
        self.pieces_sent = 0

    def stream(self, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        self.prompts.append(messages)
        reply = self.replies.pop(0)
        for i in range(0, len(reply), self.piece_chars):
            self.pieces_sent += 1
            yield reply[i : i + self.piece_chars]

    def complete(self, messages: list[dict[str, str]], **kwargs: Any) -> str:
        return "".join(self.stream(messages, **kwargs))
