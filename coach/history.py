"""The practice history: every scored clip, rehearsal and interview in one SQLite file.

``coach progress`` reads it to show trends and the weakest areas over recent sessions, and
the interviewer reads it to lean toward the question types answered worst.

The file is ``history.sqlite3`` in ``$COACH_DATA_DIR`` if set, else in the user data folder
(:func:`default_history_path`). The schema is versioned with ``PRAGMA user_version``
(:data:`SCHEMA_VERSION`) and created on first open. The database runs in WAL mode with
foreign keys on and a 5 s busy timeout; every write is one ``BEGIN IMMEDIATE`` transaction,
so a process killed while saving leaves either the whole session or nothing.

Figures are stored as measured (units in the column names); a figure that was not measured
(no speech, too little voice to judge pitch) is NULL, never 0, so trends and means skip it.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import logging
import math
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coach.errors import CoachError, OptionsError
from coach.targets import FILLERS_PER_MIN, PACE_BAND_WPM, STAR_COVERAGE

if TYPE_CHECKING:
    from coach.live.results import SessionResult
    from coach.report import ClipReport

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 2
"""Schema version written to ``PRAGMA user_version`` (2: the ``drills`` table)."""

FILE_NAME = "history.sqlite3"
"""Name of the database file in the data folder."""

KINDS = ("score", "rehearse", "interview")
"""Kinds of session."""

BUSY_TIMEOUT_S = 5.0
"""How long a write waits for another process's write to finish, seconds."""

SESSION_METRICS = (
    "duration_s", "wpm", "fillers_per_min", "long_pauses", "pause_total_s", "pitch_spread_st",
    "volume_spread_db", "hedges", "star_coverage",
)  # fmt: skip
"""Headline figures of a session (columns of ``sessions``)."""

_SESSION_COLUMNS = ("started", "kind", "scenario", "folder", *SESSION_METRICS, "extra")
_ANSWER_COLUMNS = (
    "idx", "stage", "question", "question_type", "answer", "duration_s", "words", "wpm",
    "fillers", "addressed", "star", "star_coverage", "specificity", "extra",
)  # fmt: skip

TREND_METRICS: dict[str, str] = {
    **{name: name for name in SESSION_METRICS},
    "long_pauses_per_min": "long_pauses * 60.0 / NULLIF(duration_s, 0)",
}
"""Metrics :meth:`History.trend` accepts, and the fixed SQL expression of each (user text
is never formatted into SQL: a metric is looked up here)."""

EXPORT_COLUMNS = ("id", *_SESSION_COLUMNS[:-1], "answers")
"""Columns of the CSV export, one row per session."""

_SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('score', 'rehearse', 'interview')),
    scenario TEXT NOT NULL DEFAULT '',
    folder TEXT NOT NULL DEFAULT '',
    duration_s REAL,
    wpm REAL,
    fillers_per_min REAL,
    long_pauses INTEGER,
    pause_total_s REAL,
    pitch_spread_st REAL,
    volume_spread_db REAL,
    hedges INTEGER,
    star_coverage REAL CHECK (star_coverage IS NULL OR star_coverage BETWEEN 0 AND 1),
    extra TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS sessions_started ON sessions (started, id);
CREATE INDEX IF NOT EXISTS sessions_kind_started ON sessions (kind, started, id);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    stage TEXT NOT NULL DEFAULT '',
    question TEXT NOT NULL DEFAULT '',
    question_type TEXT NOT NULL DEFAULT '',
    answer TEXT NOT NULL DEFAULT '',
    duration_s REAL,
    words INTEGER,
    wpm REAL,
    fillers INTEGER,
    addressed INTEGER CHECK (addressed IN (0, 1)),
    star TEXT,
    star_coverage REAL CHECK (star_coverage IS NULL OR star_coverage BETWEEN 0 AND 1),
    specificity REAL,
    extra TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS answers_session ON answers (session_id, idx);
CREATE INDEX IF NOT EXISTS answers_question_type ON answers (question_type);
"""

_SCHEMA_V2 = """
CREATE TABLE IF NOT EXISTS drills (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    drill TEXT NOT NULL,
    prompt TEXT NOT NULL DEFAULT '',
    folder TEXT NOT NULL DEFAULT '',
    score REAL CHECK (score IS NULL OR score BETWEEN 0 AND 1),
    duration_s REAL,
    wpm REAL,
    fillers_per_min REAL,
    extra TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS drills_drill_started ON drills (drill, started, id);
"""

_MIGRATIONS: dict[int, str] = {1: _SCHEMA_V1, 2: _SCHEMA_V2}
"""SQL that brings the schema from version ``n - 1`` to ``n`` (1: create it)."""


_SQLITE_NOTADB = 26
_SQLITE_CORRUPT = 11


class HistoryError(CoachError):
    """The history database cannot be opened, read or written."""


def _check_kind(kind: str | None) -> None:
    if kind not in KINDS:
        raise OptionsError(f"unknown session kind {kind!r}: use one of {', '.join(KINDS)}")


def _check_share(what: str, value: float | None) -> None:
    if value is not None and not 0.0 <= value <= 1.0:
        raise OptionsError(f"{what} must be between 0 and 1, not {value}")


# --- records ---------------------------------------------------------------------------------


@dataclass
class AnswerRecord:
    """One answer of a session (a rehearsal's Q&A or an interview)."""

    idx: int
    """Position in the session, from 1."""
    stage: str = ""
    """opener, behavioral, technical, closing, question, follow_up..."""
    question: str = ""
    """The question as asked."""
    question_type: str = ""
    """What kind of question it was ("audience", "behavioral", "system design"...); the
    interviewer leans toward the types answered worst."""
    answer: str = ""
    """The answer's transcript."""
    duration_s: float | None = None
    """Length of the answer's recording, seconds."""
    words: int | None = None
    """Lexical words in the answer."""
    wpm: float | None = None
    """Pace of the answer, words per minute."""
    fillers: int | None = None
    """Fillers in the answer."""
    addressed: bool | None = None
    """Whether the answer addressed the question (None: not judged)."""
    star: dict[str, bool] | None = None
    """Which STAR parts were heard, e.g. ``{"situation": True, "task": False, ...}``."""
    star_coverage: float | None = None
    """Share of the STAR parts heard, 0..1 (None: not judged)."""
    specificity: float | None = None
    """How concrete the answer was, 0..1 (None: not judged)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything else, JSON-ready (the judgement's reason, the answer's file...)."""
    id: int | None = None
    """Row id once stored."""

    def __post_init__(self) -> None:
        _check_share("answer star_coverage", self.star_coverage)


@dataclass
class SessionRecord:
    """One practice session and its headline figures (None: not measured)."""

    started: str
    """Local start time, ISO 8601 ("2025-03-01T18:30:00")."""
    kind: str
    """"score", "rehearse" or "interview"."""
    scenario: str = ""
    """What was practised: the clip's file name, the role, or the scenario's name."""
    folder: str = ""
    """The session folder, or the clip's path."""
    duration_s: float | None = None
    """Length of the talk (or of the whole interview), seconds."""
    wpm: float | None = None
    """Pace, words per minute."""
    fillers_per_min: float | None = None
    """Fillers per minute of speaking."""
    long_pauses: int | None = None
    """Long silent pauses (1.5 s or more by default)."""
    pause_total_s: float | None = None
    """Total silent-pause time, seconds."""
    pitch_spread_st: float | None = None
    """Pitch variety: standard deviation of pitch, semitones (under 2: monotone)."""
    volume_spread_db: float | None = None
    """Volume variety: standard deviation of loudness, dB."""
    hedges: int | None = None
    """Hedges and weak words ("I think", "maybe")."""
    star_coverage: float | None = None
    """Mean STAR coverage over the answers, 0..1 (None: no answer was judged for STAR)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything else, JSON-ready (status, models, further figures)."""
    answers: list[AnswerRecord] = field(default_factory=list)
    """The answers, in order."""
    id: int | None = None
    """Row id once stored."""

    def __post_init__(self) -> None:
        _check_kind(self.kind)
        _check_share("session star_coverage", self.star_coverage)


@dataclass
class DrillRecord:
    """One run of a drill (``coach drill``) and its score (None: not measured)."""

    started: str
    """Local start time, ISO 8601."""
    drill: str
    """The drill: "pauses", "pace", "opening"..."""
    prompt: str = ""
    """The prompt talked on."""
    folder: str = ""
    """The drill's folder (its recording and report)."""
    score: float | None = None
    """The drill's score, 0..1 (None: nothing could be judged)."""
    duration_s: float | None = None
    """Length of the recording, seconds."""
    wpm: float | None = None
    """Pace, words per minute."""
    fillers_per_min: float | None = None
    """Fillers per minute of speaking."""
    extra: dict[str, Any] = field(default_factory=dict)
    """The drill's figures, JSON-ready."""
    id: int | None = None
    """Row id once stored."""

    def __post_init__(self) -> None:
        _check_share("drill score", self.score)
        if not self.drill:
            raise OptionsError("a drill record needs the drill's name")


@dataclass(frozen=True)
class Targets:
    """What :meth:`History.weakest` judges recent sessions against."""

    pace_wpm: tuple[float, float] = PACE_BAND_WPM
    """Pace band, words per minute (:data:`coach.targets.PACE_BAND_WPM`: PowerPoint Speaker
    Coach's 100-165 wpm)."""
    fillers_per_min: float = FILLERS_PER_MIN
    """Most fillers per minute (:data:`coach.targets.FILLERS_PER_MIN`; a heuristic)."""
    long_pauses_per_min: float = 2.0
    """Most long pauses per minute of recording (coach's heuristic)."""
    pitch_spread_st: float = 2.0
    """Least pitch spread, semitones; below it speech sounds monotone (as
    ``coach.analysis.prosody.ProsodyOptions.monotone_st``)."""
    star_coverage: float = STAR_COVERAGE
    """Least mean STAR coverage, 0..1 (:data:`coach.targets.STAR_COVERAGE`: three of the
    four parts; coach's heuristic)."""

    def __post_init__(self) -> None:
        lo, hi = self.pace_wpm
        if not 0 < lo < hi:
            raise OptionsError(f"pace target must be two increasing positive wpm, not {lo}-{hi}")
        if self.fillers_per_min < 0 or self.long_pauses_per_min < 0 or self.pitch_spread_st < 0:
            raise OptionsError("filler, pause and pitch targets must be 0 or more")
        _check_share("star_coverage target", self.star_coverage)


@dataclass(frozen=True)
class Weakness:
    """An area where recent sessions missed their target."""

    metric: str
    """The figure: "wpm", "fillers_per_min", "long_pauses_per_min", "pitch_spread_st" or
    "star_coverage"."""
    mean: float
    """Its mean over the recent sessions that measured it (units of the metric)."""
    target: str
    """The target, in words ("100-165 wpm")."""
    sessions: int
    """How many sessions the mean rests on."""
    gap: float
    """How far past the target, as a fraction of it (0.2: 20 % past); weakest first."""
    message: str
    """One line stating the measured figure and the target."""


# --- the database ----------------------------------------------------------------------------


def default_history_path() -> Path:
    """``$COACH_DATA_DIR/history.sqlite3`` if set, else in the user data folder."""
    env = os.environ.get("COACH_DATA_DIR")
    if env:
        return Path(env).expanduser() / FILE_NAME
    from platformdirs import user_data_dir

    return Path(user_data_dir("coach", appauthor=False)) / FILE_NAME


class History:
    """The history database. Open with :meth:`open`; use as a context manager to close it.

    One object per thread (SQLite connections stay in the thread that opened them); any
    number of processes may share the file.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        """Use :meth:`open`."""
        self._conn = conn
        self.path = path
        """The database file."""

    @classmethod
    def open(cls, path: Path | str | None = None) -> History:
        """Open (and on first use create) the history database.

        Args:
            path: the database file; None for :func:`default_history_path`. Its folder is
                created if missing.

        Raises:
            HistoryError: the folder cannot be created, the file is not a SQLite database
                (or not a coach history), or its schema is newer than this coach.
        """
        path = Path(path).expanduser() if path is not None else default_history_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise HistoryError(
                f"{path.parent}: cannot create the history folder ({exc.strerror}); "
                "set COACH_DATA_DIR to a writable folder"
            ) from exc
        try:
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except sqlite3.Error as exc:
            raise HistoryError(
                f"{path}: cannot open the history database ({exc}); check the path"
            ) from exc
        history = cls(conn, path)
        try:
            history._setup()
        except sqlite3.DatabaseError as exc:
            conn.close()
            code = getattr(exc, "sqlite_errorcode", None)
            if code == _SQLITE_NOTADB:
                what = "not a SQLite database"
            elif code == _SQLITE_CORRUPT:
                what = "a damaged SQLite database"
            else:
                raise HistoryError(
                    f"{path}: cannot open the history database ({exc}); check the path"
                ) from exc
            raise HistoryError(
                f"{path}: {what} ({exc}); move the file aside (coach starts a new history) "
                "or choose another history file"
            ) from exc
        except BaseException:
            conn.close()
            raise
        return history

    def _setup(self) -> None:
        conn = self._conn
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # reads the header
        self._check_version(version)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            logger.warning("%s: WAL journal mode unavailable, using %s", self.path, mode)
        if version == SCHEMA_VERSION:
            return
        with self._write("create the history tables"):
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process?
            self._check_version(version)
            if version == 0:
                tables = [
                    r[0]
                    for r in conn.execute(
                        "SELECT name FROM sqlite_master WHERE type = 'table' "
                        "AND name NOT LIKE 'sqlite_%' "
                        "AND name NOT IN ('sessions', 'answers', 'drills')"
                    )
                ]
                if tables:
                    raise HistoryError(
                        f"{self.path}: a SQLite database but not a coach history (it has "
                        f"tables {', '.join(sorted(tables))}); choose another history file"
                    )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                # one statement at a time: executescript() would commit the transaction first
                for statement in _MIGRATIONS[target].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {int(target)}")

    def _check_version(self, version: int) -> None:
        if version > SCHEMA_VERSION:
            raise HistoryError(
                f"{self.path}: history schema version {version} is newer than this coach "
                f"reads ({SCHEMA_VERSION}); upgrade coach or choose another history file"
            )

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it.

        ``BEGIN IMMEDIATE`` takes the write lock at once (waiting up to the busy timeout),
        so the transaction never fails half-way for want of the lock.
        """
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise HistoryError(
                f"{self.path}: cannot {what} ({exc}); another coach may be writing, try again"
            ) from exc
        try:
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            _rollback(conn)
            raise HistoryError(f"{self.path}: cannot {what} ({exc})") from exc
        except BaseException:
            _rollback(conn)
            raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every query inside sees the same snapshot."""
        conn = self._conn
        try:
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                _rollback(conn)
        except sqlite3.Error as exc:
            raise HistoryError(f"{self.path}: cannot read the history ({exc})") from exc

    def close(self) -> None:
        """Close the database."""
        self._conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def add(self, session: SessionRecord) -> int:
        """Store a session and all its answers in one transaction; returns its new id.

        ``session.id`` and the answers' ids are ignored (a new row is always written) and
        left as they are.

        Raises:
            HistoryError: the database could not be written (busy for longer than the busy
                timeout, disk full, read-only).
        """
        _check_kind(session.kind)
        s = session
        values = (
            s.started, s.kind, s.scenario, s.folder, _real(s.duration_s), _real(s.wpm),
            _real(s.fillers_per_min), _int(s.long_pauses), _real(s.pause_total_s),
            _real(s.pitch_spread_st), _real(s.volume_spread_db), _int(s.hedges),
            _real(s.star_coverage), _dumps(s.extra),
        )  # fmt: skip
        with self._write("save the session") as conn:
            cur = conn.execute(_INSERT_SESSION, values)
            session_id = cur.lastrowid
            assert session_id is not None
            conn.executemany(
                _INSERT_ANSWER, [(session_id, *_answer_values(a)) for a in session.answers]
            )
        return session_id

    def add_drill(self, run: DrillRecord) -> int:
        """Store one drill run; returns its new id (``run.id`` is ignored).

        Raises:
            HistoryError: the database could not be written.
        """
        r = run
        values = (
            r.started, r.drill, r.prompt, r.folder, _real(r.score), _real(r.duration_s),
            _real(r.wpm), _real(r.fillers_per_min), _dumps(r.extra),
        )  # fmt: skip
        with self._write("save the drill") as conn:
            cur = conn.execute(_INSERT_DRILL, values)
        assert cur.lastrowid is not None
        return cur.lastrowid

    def drills(self, drill: str | None = None) -> list[DrillRecord]:
        """Drill runs, oldest first (only ``drill``'s, if given)."""
        where, params = ("WHERE drill = ?", (drill,)) if drill else ("", ())
        with self._read() as conn:
            rows = conn.execute(f"SELECT * FROM drills {where} ORDER BY started, id", params)
            return [
                DrillRecord(
                    started=r["started"],
                    drill=r["drill"],
                    prompt=r["prompt"],
                    folder=r["folder"],
                    score=r["score"],
                    duration_s=r["duration_s"],
                    wpm=r["wpm"],
                    fillers_per_min=r["fillers_per_min"],
                    extra=json.loads(r["extra"] or "{}"),
                    id=r["id"],
                )  # fmt: skip
                for r in rows.fetchall()
            ]

    def delete(self, session_id: int) -> bool:
        """Delete a session and its answers; False if there was no such session."""
        with self._write("delete the session") as conn:
            cur = conn.execute("DELETE FROM sessions WHERE id = ?", (int(session_id),))
        return cur.rowcount > 0

    def delete_all(self) -> int:
        """Delete every session, answer and drill run; returns how many sessions were
        deleted."""
        with self._write("delete the history") as conn:
            conn.execute("DELETE FROM drills")
            cur = conn.execute("DELETE FROM sessions")
        return cur.rowcount

    # -- reading ---------------------------------------------------------------------------

    def sessions(self, kind: str | None = None, limit: int | None = None) -> list[SessionRecord]:
        """Sessions with their answers, oldest first.

        Args:
            kind: only this kind ("score", "rehearse", "interview"); None for all.
            limit: only the most recent this many (still oldest first); None for all.
        """
        where, params = _kind_filter(kind)
        if limit is not None and limit < 0:
            raise OptionsError(f"limit must be 0 or more sessions, not {limit}")
        sql = (
            f"SELECT * FROM (SELECT * FROM sessions {where} ORDER BY started DESC, id DESC "
            "LIMIT ?) ORDER BY started, id"
        )
        with self._read() as conn:
            rows = conn.execute(sql, (*params, -1 if limit is None else limit)).fetchall()
            return self._with_answers(conn, rows)

    def get(self, session_id: int) -> SessionRecord | None:
        """One session with its answers; None if there is no such session."""
        with self._read() as conn:
            rows = conn.execute("SELECT * FROM sessions WHERE id = ?", (int(session_id),))
            found = self._with_answers(conn, rows.fetchall())
        return found[0] if found else None

    def count(self, kind: str | None = None) -> int:
        """How many sessions are stored (of ``kind``, if given)."""
        where, params = _kind_filter(kind)
        with self._read() as conn:
            return int(conn.execute(f"SELECT COUNT(*) FROM sessions {where}", params).fetchone()[0])

    def _with_answers(
        self, conn: sqlite3.Connection, rows: Sequence[sqlite3.Row]
    ) -> list[SessionRecord]:
        records = [_session_from_row(r) for r in rows]
        by_id = {r.id: r for r in records}
        ids = list(by_id)
        for i in range(0, len(ids), 500):  # under SQLite's limit of bound parameters
            chunk = ids[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for row in conn.execute(
                f"SELECT * FROM answers WHERE session_id IN ({marks}) ORDER BY session_id, idx, id",
                chunk,
            ):
                by_id[row["session_id"]].answers.append(_answer_from_row(row))
        return records

    def trend(self, metric: str, kind: str | None = None) -> list[tuple[str, float]]:
        """A figure over time: ``(started, value)`` per session that measured it, oldest
        first.

        Args:
            metric: a name in :data:`TREND_METRICS` (a session column, or
                "long_pauses_per_min").
            kind: only this kind of session; None for all.

        Raises:
            OptionsError: an unknown metric or kind.
        """
        expr = TREND_METRICS.get(metric)
        if expr is None:
            raise OptionsError(
                f"unknown metric {metric!r}: use one of {', '.join(sorted(TREND_METRICS))}"
            )
        where, params = _kind_filter(kind)
        sql = f"SELECT started, {expr} AS v FROM sessions {where} ORDER BY started, id"
        with self._read() as conn:
            rows = conn.execute(sql, params).fetchall()
        return [(r["started"], float(r["v"])) for r in rows if r["v"] is not None]

    def weakest(
        self, kind: str | None = None, last_n: int = 5, *, targets: Targets = Targets()
    ) -> list[Weakness]:
        """Areas where the last ``last_n`` sessions missed their targets, weakest first.

        Each figure is the mean over those of the sessions that measured it: pace outside
        the wpm band, fillers per minute above the target, long pauses per minute of
        recording above the target, pitch spread below the monotone threshold, mean STAR
        coverage below the target. Areas on target are left out.

        Raises:
            OptionsError: ``last_n`` below 1, or an unknown kind.
        """
        if last_n < 1:
            raise OptionsError(f"last_n must be at least 1 session, not {last_n}")
        recent = self.sessions(kind, limit=last_n)
        return weaknesses(recent, targets=targets)

    def question_type_scores(self, kind: str | None = "interview") -> dict[str, float]:
        """Mean answer score per question type over the whole history, lowest first.

        An answer's score is its STAR coverage (1 if not judged for STAR), or 0 if it did
        not address its question; answers judged for neither are skipped, and so are answers
        without a question type.

        Args:
            kind: only answers of this kind of session; None for all.
        """
        where, params = _kind_filter(kind, column="s.kind", conjunction="AND")
        sql = (
            "SELECT a.question_type AS qt, "
            "AVG(COALESCE(a.addressed, 1) * COALESCE(a.star_coverage, 1.0)) AS score "
            "FROM answers a JOIN sessions s ON s.id = a.session_id "
            "WHERE a.question_type != '' "
            "AND (a.addressed IS NOT NULL OR a.star_coverage IS NOT NULL) "
            f"{where} GROUP BY a.question_type ORDER BY score, a.question_type"
        )
        with self._read() as conn:
            return {r["qt"]: float(r["score"]) for r in conn.execute(sql, params)}

    def export(self, fmt: str, kind: str | None = None) -> str:
        """The history as text.

        Args:
            fmt: "csv" (one row per session, :data:`EXPORT_COLUMNS`, empty cells for
                figures not measured) or "json" (a list of sessions with their answers).
            kind: only this kind of session; None for all.

        Raises:
            OptionsError: an unknown format or kind.
        """
        if fmt not in ("csv", "json"):
            raise OptionsError(f"unknown export format {fmt!r}: use csv or json")
        records = self.sessions(kind)
        if fmt == "json":
            return json.dumps([asdict(r) for r in records], indent=2, ensure_ascii=False) + "\n"
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=EXPORT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for r in records:
            row = {c: getattr(r, c) for c in EXPORT_COLUMNS if c != "answers"}
            row["answers"] = len(r.answers)
            writer.writerow({k: "" if v is None else v for k, v in row.items()})
        return buf.getvalue()


_INSERT_SESSION = (
    f"INSERT INTO sessions ({', '.join(_SESSION_COLUMNS)}) "
    f"VALUES ({', '.join('?' * len(_SESSION_COLUMNS))})"
)
_DRILL_COLUMNS = (
    "started", "drill", "prompt", "folder", "score", "duration_s", "wpm", "fillers_per_min",
    "extra",
)  # fmt: skip
_INSERT_DRILL = (
    f"INSERT INTO drills ({', '.join(_DRILL_COLUMNS)}) "
    f"VALUES ({', '.join('?' * len(_DRILL_COLUMNS))})"
)
_INSERT_ANSWER = (
    f"INSERT INTO answers (session_id, {', '.join(_ANSWER_COLUMNS)}) "
    f"VALUES (?, {', '.join('?' * len(_ANSWER_COLUMNS))})"
)


# --- judging recent sessions -----------------------------------------------------------------


def weaknesses(
    sessions: Sequence[SessionRecord], *, targets: Targets = Targets()
) -> list[Weakness]:
    """Areas where ``sessions`` missed ``targets`` on average, weakest first (pure; see
    :meth:`History.weakest`)."""

    def mean_of(values: list[float | None]) -> tuple[float, int] | None:
        got = [v for v in values if v is not None and not math.isnan(v)]
        return (sum(got) / len(got), len(got)) if got else None

    def over(n: int) -> str:
        return f"over the last {n} session{'s' if n != 1 else ''}"

    def gap(mean: float, target: float) -> float:
        return abs(mean - target) / target if target > 0 else math.inf

    found: list[Weakness] = []
    t = targets
    pace = mean_of([s.wpm for s in sessions])
    if pace:
        m, n = pace
        lo, hi = t.pace_wpm
        band = f"{lo:g}-{hi:g} wpm"
        if m < lo or m > hi:
            side, bound = ("below", lo) if m < lo else ("above", hi)
            message = f"pace averaged {m:.0f} wpm {over(n)}, {side} the {band} target"
            found.append(Weakness("wpm", m, band, n, abs(m - bound) / bound, message))
    fillers = mean_of([s.fillers_per_min for s in sessions])
    if fillers and fillers[0] > t.fillers_per_min:
        m, n = fillers
        message = (
            f"fillers averaged {m:.1f} per minute {over(n)}; target {t.fillers_per_min:g} or fewer"
        )
        target = f"at most {t.fillers_per_min:g} per minute"
        found.append(Weakness("fillers_per_min", m, target, n, gap(m, t.fillers_per_min), message))
    pauses = mean_of(
        [
            s.long_pauses * 60.0 / s.duration_s if s.long_pauses is not None and s.duration_s
            else None
            for s in sessions
        ]
    )  # fmt: skip
    if pauses and pauses[0] > t.long_pauses_per_min:
        m, n = pauses
        message = (
            f"long pauses averaged {m:.1f} per minute {over(n)}; target "
            f"{t.long_pauses_per_min:g} or fewer"
        )
        target = f"at most {t.long_pauses_per_min:g} per minute"
        found.append(
            Weakness("long_pauses_per_min", m, target, n, gap(m, t.long_pauses_per_min), message)
        )
    pitch = mean_of([s.pitch_spread_st for s in sessions])
    if pitch and pitch[0] < t.pitch_spread_st:
        m, n = pitch
        message = (
            f"pitch spread averaged {m:.1f} semitones {over(n)}; under "
            f"{t.pitch_spread_st:g} semitones is monotone"
        )
        target = f"at least {t.pitch_spread_st:g} semitones"
        found.append(Weakness("pitch_spread_st", m, target, n, gap(m, t.pitch_spread_st), message))
    star = mean_of([s.star_coverage for s in sessions])
    if star and star[0] < t.star_coverage:
        m, n = star
        message = (
            f"answers covered {m:.0%} of the STAR parts on average {over(n)}; "
            f"target {t.star_coverage:.0%}"
        )
        target = f"at least {t.star_coverage:.0%} of the STAR parts"
        found.append(Weakness("star_coverage", m, target, n, gap(m, t.star_coverage), message))
    found.sort(key=lambda w: -w.gap)
    return found


# --- building records ------------------------------------------------------------------------


def record_from_clip_report(
    report: ClipReport,
    *,
    kind: str,
    scenario: str = "",
    folder: str = "",
    started: str | None = None,
) -> SessionRecord:
    """A session record from one clip's report (``coach score``, or a talk).

    Figures that were not measured are None: all of them for a clip that could not be
    scored or held no words, the pitch spread when under 1 s of voice was heard.

    Args:
        report: the clip's report.
        kind: "score", "rehearse" or "interview".
        scenario: what was practised ("" if nothing better than the file name is known).
        folder: the session folder or clip path ("": the report's file).
        started: local start time, ISO 8601 (None: now).
    """
    figures, extra = _clip_figures(report)
    return SessionRecord(
        started=started or _now(),
        kind=kind,
        scenario=scenario,
        folder=folder or report.file,
        extra=extra,
        **figures,
    )


def record_from_session(
    result: SessionResult, *, scenario: str = "", started: str | None = None
) -> SessionRecord:
    """A session record from a rehearsal or an interview: the headline figures (the talk's,
    or for an interview the answers' pooled delivery) and one answer record per question.

    Args:
        result: the session's result (``result.kind`` is "rehearse" or "interview").
        scenario: what was practised (the talk's name, the role or scenario), or "".
        started: local start time, ISO 8601 (None: the result's, or now).
    """
    if result.talk is not None:
        figures, talk_extra = _clip_figures(result.talk)
    else:
        figures, talk_extra = _answers_figures(result), {}
    extra: dict[str, Any] = {
        "status": result.status,
        "notes": list(result.notes),
        "models": dict(result.models),
        "talk": talk_extra,
        "context": dict(result.context),
        "practice": list(result.practice),
    }
    if result.script is not None:
        sc = result.script
        extra["script"] = {
            "covered": sc.covered, "skipped": sc.skipped,
            "verbatim_share": round(float(sc.verbatim_share), 3),
        }  # fmt: skip
    answers = []
    coverages = []
    for ex in result.exchanges:
        q, a, j, fb = ex.question, ex.answer, ex.judgement, ex.feedback
        spoke = a is not None and a.ok and a.word_count > 0
        star = None
        if fb is not None:
            star = {p.name: bool(p.present) for p in fb.star}
            if q.stage == "behavioral":
                coverages.append(float(fb.star_coverage))
        answers.append(
            AnswerRecord(
                idx=ex.index,
                stage=q.stage or q.kind,
                question=q.text,
                question_type=q.focus if result.kind == "interview" else "audience",
                answer=a.transcript if a is not None else "",
                duration_s=a.duration_s if a is not None and a.duration_s > 0 else None,
                words=a.word_count if a is not None and a.ok else None,
                wpm=a.pace.wpm if spoke else None,  # type: ignore[union-attr]
                fillers=a.fillers.count if a is not None and a.ok else None,
                addressed=j.addressed if j is not None else None,
                star=star,
                star_coverage=float(fb.star_coverage) if fb is not None and star else None,
                specificity=float(fb.specificity) if fb is not None else None,
                extra={
                    "kind": q.kind,
                    "lead_in": q.lead_in,
                    "focus": q.focus,
                    "source": q.source,
                    "answer_file": ex.answer_file,
                    "reason": j.reason if j is not None else "",
                    "shared_terms": list(j.shared_terms) if j is not None else [],
                    "specifics": list(j.specifics) if j is not None else [],
                    "deflections": list(j.deflections) if j is not None else [],
                    "vague": bool(fb.vague) if fb is not None else None,
                },
            )
        )
    if coverages:
        figures["star_coverage"] = round(sum(coverages) / len(coverages), 3)
    return SessionRecord(
        started=started or result.started or _now(),
        kind=result.kind if result.kind in KINDS else "rehearse",
        scenario=scenario,
        folder=str(result.folder),
        extra=extra,
        answers=answers,
        **figures,
    )


record_from_rehearsal = record_from_session
"""The former name of :func:`record_from_session`."""


def _answers_figures(result: SessionResult) -> dict[str, Any]:
    """An interview's delivery figures pooled over its answers (None where not measured)."""
    reports = [e.answer for e in result.exchanges if e.answer is not None and e.answer.ok]
    spoken = [r for r in reports if r.word_count > 0]
    speaking_s = sum(r.pace.speaking_s for r in spoken)
    if not spoken or speaking_s <= 0:
        return {"duration_s": sum(r.duration_s for r in reports) or None}
    minutes = speaking_s / 60
    return {
        "duration_s": round(sum(r.duration_s for r in reports), 2),
        "wpm": round(sum(r.word_count for r in spoken) / minutes, 1),
        "fillers_per_min": round(sum(r.fillers.count for r in spoken) / minutes, 2),
        "long_pauses": sum(r.pauses.long_count for r in spoken),
        "pause_total_s": round(sum(r.pauses.total_s for r in spoken), 2),
        "hedges": sum(r.hedges.count for r in spoken),
    }


def _clip_figures(report: ClipReport) -> tuple[dict[str, Any], dict[str, Any]]:
    """The headline figures as session columns (None where not measured), and the rest."""
    from coach.report import headline

    h = headline(report)
    spoke = report.ok and report.word_count > 0
    pitched = spoke and report.pitch.voiced_s >= 1.0

    def when(ok: bool, key: str) -> Any:
        return h[key] if ok else None

    figures = {
        "duration_s": h["duration_s"] if report.duration_s > 0 else None,
        "wpm": when(spoke, "wpm"),
        "fillers_per_min": when(spoke, "fillers_per_min"),
        "long_pauses": when(spoke, "long_pauses"),
        "pause_total_s": when(spoke, "pause_total_s"),
        "pitch_spread_st": when(pitched, "pitch_spread_st"),
        "volume_spread_db": when(spoke, "volume_spread_db"),
        "hedges": when(spoke, "hedges"),
    }
    extra = {k: v for k, v in h.items() if k not in figures}
    extra["asr_model"] = report.asr_model
    return figures, extra


# --- helpers ---------------------------------------------------------------------------------


def _now() -> str:
    return dt.datetime.now().isoformat(timespec="seconds")


def _kind_filter(
    kind: str | None, *, column: str = "kind", conjunction: str = "WHERE"
) -> tuple[str, tuple[str, ...]]:
    """A fixed SQL condition on the session kind (``kind`` is bound, never formatted)."""
    if kind is None:
        return "", ()
    _check_kind(kind)
    return f"{conjunction} {column} = ?", (kind,)


def _real(x: float | None) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def _int(x: int | None) -> int | None:
    return None if x is None else int(x)


def _jsonable(obj: Any) -> Any:
    if hasattr(obj, "item"):  # numpy scalars
        return obj.item()
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    raise TypeError(f"{type(obj).__name__} cannot be stored in the history as JSON")


def _dumps(obj: Any) -> str:
    try:
        return json.dumps(obj, default=_jsonable, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise OptionsError(f"extra figures must be JSON-ready: {exc}") from exc


def _answer_values(a: AnswerRecord) -> tuple[Any, ...]:
    return (
        int(a.idx), a.stage, a.question, a.question_type, a.answer, _real(a.duration_s),
        _int(a.words), _real(a.wpm), _int(a.fillers),
        None if a.addressed is None else int(bool(a.addressed)),
        None if a.star is None else _dumps(a.star), _real(a.star_coverage),
        _real(a.specificity), _dumps(a.extra),
    )  # fmt: skip


def _session_from_row(r: sqlite3.Row) -> SessionRecord:
    return SessionRecord(
        started=r["started"],
        kind=r["kind"],
        scenario=r["scenario"],
        folder=r["folder"],
        **{m: r[m] for m in SESSION_METRICS},
        extra=json.loads(r["extra"] or "{}"),
        id=r["id"],
    )


def _answer_from_row(r: sqlite3.Row) -> AnswerRecord:
    return AnswerRecord(
        idx=r["idx"],
        stage=r["stage"],
        question=r["question"],
        question_type=r["question_type"],
        answer=r["answer"],
        duration_s=r["duration_s"],
        words=r["words"],
        wpm=r["wpm"],
        fillers=r["fillers"],
        addressed=None if r["addressed"] is None else bool(r["addressed"]),
        star=None if r["star"] is None else json.loads(r["star"]),
        star_coverage=r["star_coverage"],
        specificity=r["specificity"],
        extra=json.loads(r["extra"] or "{}"),
        id=r["id"],
    )


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:  # the transaction is gone already (SQLite rolled it back)
            pass


__all__ = [
    "EXPORT_COLUMNS", "KINDS", "SCHEMA_VERSION", "SESSION_METRICS", "TREND_METRICS",
    "AnswerRecord", "DrillRecord", "History", "HistoryError", "SessionRecord", "Targets",
    "Weakness",
    "default_history_path", "record_from_clip_report", "record_from_rehearsal", "weaknesses",
]  # fmt: skip
