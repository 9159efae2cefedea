"""`coach rehearse` and `coach devices` on the command line: what goes wrong gives one line
and an exit code before anything is recorded (no models needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES

from coach import stream
from coach.cli import main
from coach.stream import DeviceError


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def no_portaudio(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without sounddevice/PortAudio (this one, and CI)."""

    def missing() -> None:
        raise DeviceError("sounddevice is not installed: pip install 'coach[speaker]', "
                          "or use --input FILE")  # fmt: skip

    monkeypatch.setattr(stream, "load_sounddevice", missing)


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_no_microphone_is_one_line(capsys, no_portaudio, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run(capsys, "rehearse", "--save", str(tmp_path / "s"))
    assert code == 2
    assert "--input FILE" in one_line(err)
    assert not (tmp_path / "s").exists()  # nothing was started


def test_devices_without_portaudio(capsys, no_portaudio) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run(capsys, "devices")
    assert code == 2 and "sounddevice" in one_line(err)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--answers", str(FIXTURES / "answers/answer_01.wav")], "--answers needs --input"),
        (["--fast"], "--fast needs --input"),
        (["--input", "nope.wav"], "nope.wav"),
        (["--input", str(FIXTURES / "not_audio.wav")], "not_audio.wav"),
        (["--input", str(FIXTURES / "practice_talk.wav"), "--answers", "missing.wav"],
         "missing.wav"),
        (["--input", str(FIXTURES / "practice_talk.wav"), "--script", "no_script.md"],
         "no_script.md"),
        (["--input", str(FIXTURES / "practice_talk.wav"), "--audience", " "], "persona"),
        (["--input", str(FIXTURES / "practice_talk.wav"), "--answer-pause", "0.2"],
         "end-of-answer silence"),
    ],
)  # fmt: skip
def test_bad_rehearse_arguments_fail_first(capsys, tmp_path: Path, argv, needle) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "session"
    code, _out, err = run(capsys, "rehearse", "--save", str(save), *argv)
    assert code == 2, err
    assert needle in one_line(err)
    assert not save.exists()


def test_save_folder_holding_a_session_is_refused(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "report.json").write_text("{}")
    code, _out, err = run(capsys, "rehearse", "--input", str(FIXTURES / "practice_talk.wav"),
                          "--save", str(tmp_path))  # fmt: skip
    assert code == 2 and "already holds a session" in one_line(err)
