"""The session folder: every file written whole (atomically) or appended line by line, so a
crash, Ctrl-C or a vanished microphone leaves a readable session."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

from coach.errors import CoachError
from coach.files import write_text_atomic
from coach.live.results import SessionResult, TurnTiming


def default_sessions_dir() -> Path:
    """Where sessions go without ``--save``: $COACH_DATA_DIR or the user data folder."""
    env = os.environ.get("COACH_DATA_DIR")
    if env:
        return Path(env).expanduser() / "sessions"
    from platformdirs import user_data_dir

    return Path(user_data_dir("coach", appauthor=False)) / "sessions"


class SessionFolder:
    """One session's files, each written whole (atomically) or appended line by line."""

    def __init__(self, path: Path) -> None:
        try:
            path.mkdir(parents=True, exist_ok=True)
            (path / "answers").mkdir(exist_ok=True)
        except OSError as exc:
            raise CoachError(f"{path}: cannot create the session folder ({exc.strerror})") from exc
        if not os.access(path, os.W_OK):
            raise CoachError(f"{path}: the session folder is not writable")
        self.path = path

    @classmethod
    def new(cls, base: Path | None, kind: str) -> SessionFolder:
        """A fresh folder ``<base>/<date>-<time>-<kind>`` (``base`` None: the default)."""
        base = base if base is not None else default_sessions_dir()
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = base / f"{stamp}-{kind}"
        n = 1
        while path.exists():
            n += 1
            path = base / f"{stamp}-{kind}-{n}"
        return cls(path)

    def file(self, name: str) -> Path:
        """Path of a file in the session."""
        return self.path / name

    def write_text(self, name: str, text: str) -> Path:
        """Write a whole file atomically (a crash leaves the old or the new one)."""
        return write_text_atomic(self.path / name, text)

    def write_json(self, name: str, obj: Any) -> Path:
        """Write a JSON file atomically."""
        return self.write_text(name, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")

    def write_report(self, result: SessionResult) -> None:
        """report.json of ``result`` (cheap: rewritten after every step)."""
        self.write_json("report.json", result.to_dict())

    def write_pages(self, result: SessionResult) -> None:
        """report.html and report.md of ``result`` once it holds a talk or an answer (the
        charts take a moment: after the talk and at the end)."""
        if result.talk is not None or result.exchanges:
            from coach.render.session import session_html, session_markdown

            self.write_text("report.html", session_html(result))
            self.write_text("report.md", session_markdown(result))

    def log_turn(self, timing: TurnTiming) -> None:
        """Append one turn's timings to timings.jsonl."""
        self.append_line("timings.jsonl", json.dumps(timing.to_dict()))

    def append_line(self, name: str, line: str) -> None:
        """Append one line and push it to disk."""
        with (self.path / name).open("a", encoding="utf-8") as f:
            f.write(line.rstrip("\n") + "\n")
            f.flush()
            os.fsync(f.fileno())
