"""Renderings of a rehearsal session: the talk's clip report plus script coverage, the
questions and answers, and the per-turn timings, in the terminal, Markdown and HTML.

The rows are built once here (:func:`qa_rows`, :func:`script_rows`, :func:`timing_rows`)
and laid out by each format, as :mod:`coach.render.common` does for clips.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coach.render.common import clock

if TYPE_CHECKING:
    from rich.console import Console

    from coach.live.results import SessionResult

QA_HEADERS = ("#", "Asked", "Question", "Answer", "Words", "Pace wpm", "Fillers", "Addressed")
SCRIPT_HEADERS = ("Key point", "Covered", "Score", "Where", "What was said")
TIMING_HEADERS = (
    "Turn", "Reply", "Transcript s", "LLM 1st token s", "Reply audio s", "Question audio s",
    "End to end s",
)  # fmt: skip
"""Timing columns: seconds after the end-of-turn decision, except the LLM's first token
(after its generation started) and end to end (from the end of speech)."""


def _f(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def qa_rows(result: SessionResult) -> list[list[str]]:
    """One row per question: who asked what, the answer, its delivery, the judgement."""
    rows = []
    for e in result.exchanges:
        q = e.question
        a = e.answer
        asked = "follow-up" if q.kind == "follow_up" else "question"
        if q.source == "fallback":
            asked += " (built)"
        j = e.judgement
        verdict = "" if j is None else ("yes: " if j.addressed else "no: ") + j.reason
        rows.append([
            str(e.index), asked, f"{q.lead_in} {q.text}".strip(),
            (a.transcript if a else "(no answer recording)") or "(no answer heard)",
            str(a.word_count) if a else "", _f(a.pace.wpm if a else None, 0),
            str(a.fillers.count) if a else "", verdict,
        ])  # fmt: skip
    return rows


def script_rows(coverage: Any) -> list[list[str]]:
    """One row per key point of the script."""
    return [
        [p.text, "yes" if p.covered else "skipped", f"{p.score:.2f}",
         clock(p.start_s) if p.start_s is not None else "", p.evidence or ""]
        for p in coverage.points
    ]  # fmt: skip


def script_summary(coverage: Any) -> str:
    """One line: points covered and how close to the script the delivery stayed."""
    return (
        f"{coverage.covered} of {len(coverage.points)} key points covered, "
        f"{coverage.skipped} skipped; {coverage.verbatim_share:.0%} of the script's words "
        f"delivered in its order (drift {coverage.drift:.0%})"
    )


def timing_rows(result: SessionResult) -> list[list[str]]:
    """One row per turn with the stage durations (seconds)."""
    rows = []
    for t in result.timings:
        st = t.stages()
        rows.append([
            f"{t.turn} (after {t.after})", t.reply, _f(st["transcript_after_decision_s"]),
            _f(st["llm_first_token_s"]), _f(st["response_after_decision_s"]),
            _f(st["question_after_decision_s"]), _f(st["end_to_end_s"]),
        ])  # fmt: skip
    return rows


FEEDBACK_HEADERS = ("#", "Stage", "STAR", "Specificity", "Length", "Vague", "Feedback")


def _title(result: SessionResult) -> str:
    return {"interview": "Interview", "rehearse": "Rehearsal"}.get(result.kind, "Session")


def _context_line(result: SessionResult) -> str:
    c = result.context
    parts = [f"{k}: {c[k]}" for k in ("role", "company", "persona", "scenario", "stage")
             if c.get(k)]  # fmt: skip
    if c.get("leaning"):
        parts.append(str(c["leaning"]))
    return " · ".join(parts)


def feedback_rows(result: SessionResult) -> list[list[str]]:
    """One row per answer with content feedback (interviews): STAR parts present,
    specificity, length against the target, vagueness and the feedback lines."""
    rows = []
    for e in result.exchanges:
        fb = e.feedback
        if fb is None:
            continue
        star = "".join(p.name[0].upper() if p.present else "-" for p in fb.star)
        length = fb.length_verdict
        if fb.duration_s is not None:
            length = f"{fb.duration_s:.0f} s, {fb.length_verdict}"
        rows.append([
            str(e.index), e.question.stage or e.question.kind, star, f"{fb.specificity:.2f}",
            length, "yes: " + "; ".join(fb.vague_reasons) if fb.vague else "no",
            " ".join(fb.messages[:2]),
        ])  # fmt: skip
    return rows


# --- HTML ------------------------------------------------------------------------------------


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _html_table(headers: tuple[str, ...], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "\n".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table>\n<tr>{head}</tr>\n{body}\n</table>"


def _recording_src(result: SessionResult, path: Path) -> str | None:
    """The URL of a recording in the session folder relative to report.html, or None when
    the file is not in the folder (the page then plays nothing).

    Args:
        result: the session.
        path: the recording, absolute or relative to the working directory.
    """
    from coach.render.listen import relative_src

    folder = Path(result.folder)
    try:
        rel = path.resolve().relative_to(folder.resolve())
    except (OSError, ValueError):
        return None
    return relative_src(rel) if path.is_file() else None


def answers_html(result: SessionResult) -> str:
    """A listening section per recorded answer, the first open: its audio (the wav in the
    session folder), the moments of its delivery and its transcript."""
    from coach.render.listen import listen_html

    out = []
    for n, e in enumerate(x for x in result.exchanges if x.answer is not None and x.answer.ok):
        a = e.answer
        assert a is not None
        src = _recording_src(result, Path(result.folder) / e.answer_file if e.answer_file
                             else Path(a.file))  # fmt: skip
        summary = (
            f"{e.index}. {e.question.lead_in} {e.question.text}".replace("  ", " ")
            + f" ({a.duration_s:.0f} s, {a.fillers.count} "
            + ("filler" if a.fillers.count == 1 else "fillers") + ")"
        )  # fmt: skip
        out.append(
            f'<details class="answer"{" open" if n == 0 else ""}><summary>{_e(summary)}</summary>'
            + listen_html(a, src=src, pid=f"answer-{e.index}") + "</details>"
        )  # fmt: skip
    return "\n".join(out)


def session_html(result: SessionResult) -> str:
    """The session as one self-contained page: the talk's report with the script coverage,
    the questions and answers and the timings added. The talk and each answer can be
    listened to: report.html plays the session's own wav files beside it."""
    from coach.render.html import clip_page, document

    sections = []
    if result.practice:
        items = "".join(f"<li>{_e(p)}</li>" for p in result.practice)
        sections.append(("What to practise next", f"<ol>{items}</ol>"))
    if result.notes:
        items = "".join(f"<li>{_e(n)}</li>" for n in result.notes)
        sections.append(("Notes", f'<ul class="note">{items}</ul>'))
    if result.script is not None:
        sections.append(("Script", f"<p>{_e(script_summary(result.script))}</p>\n"
                         + _html_table(SCRIPT_HEADERS, script_rows(result.script))))  # fmt: skip
    if result.exchanges:
        sections.append(("Questions and answers", _html_table(QA_HEADERS, qa_rows(result))))
    listen_answers = answers_html(result)
    if listen_answers:
        sections.append(("Listen to your answers", listen_answers))
    if result.timings:
        sections.append(("Response times", _html_table(TIMING_HEADERS, timing_rows(result))))
    if any(e.feedback is not None for e in result.exchanges):
        sections.append(("Feedback per answer", _html_table(FEEDBACK_HEADERS,
                                                            feedback_rows(result))))  # fmt: skip
    title = f"{_title(result)} {result.started} ({result.status})"
    if result.talk is not None:
        src = _recording_src(result, Path(result.talk.file)) if result.talk.ok else None
        return clip_page(result.talk, sections=sections, title=title, audio_src=src)
    body = [f"<h1>{_e(title)}</h1>", f'<p class="meta">{_e(_context_line(result))}</p>']
    body += [f"<h2>{_e(h)}</h2>\n{html_text}" for h, html_text in sections]
    return document(title, "\n".join(body))


# --- Markdown --------------------------------------------------------------------------------


def session_markdown(result: SessionResult) -> str:
    """The session as Markdown: the talk's section, then script, Q&A and timings."""
    from coach.render.markdown import clip_section, escape, table

    out = [f"# {_title(result)} {escape(result.started)} ({result.status})", ""]
    if result.context:
        out += [escape(_context_line(result)), ""]
    out += [f"- {escape(n)}" for n in result.notes] + ([""] if result.notes else [])
    if result.practice:
        out += ["## What to practise next", ""]
        out += [f"{i}. {escape(p)}" for i, p in enumerate(result.practice, 1)] + [""]
    if result.talk is not None:
        out.append(clip_section(result.talk, level=2))
    if result.script is not None:
        out += ["## Script", "", escape(script_summary(result.script)), ""]
        out += table(SCRIPT_HEADERS, script_rows(result.script)) + [""]
    if result.exchanges:
        out += ["## Questions and answers", ""] + table(QA_HEADERS, qa_rows(result)) + [""]
    if any(e.feedback is not None for e in result.exchanges):
        out += ["## Feedback per answer", ""]
        out += table(FEEDBACK_HEADERS, feedback_rows(result)) + [""]
    if result.timings:
        out += ["## Response times", ""] + table(TIMING_HEADERS, timing_rows(result)) + [""]
    return "\n".join(out).rstrip() + "\n"


# --- terminal --------------------------------------------------------------------------------


def print_session(result: SessionResult, console: Console) -> None:
    """The end of the session in the terminal: questions, answers and judgements, notes, and
    where the session was saved.

    (The talk's own report is printed when the talk ends.)
    """
    from rich.text import Text

    if result.exchanges:
        console.print(Text("Questions and answers", style="bold"))
        for row in qa_rows(result):
            index, asked, question, answer, words, wpm, fillers, verdict = row
            console.print(Text.assemble((f"{index}. {asked}: ", "bold cyan"), question))
            console.print(Text("   you: " + answer), highlight=False)
            if words:
                noun = "filler" if fillers == "1" else "fillers"
                console.print(Text(f"   {words} words, {wpm} wpm, {fillers} {noun}; "
                                   f"addressed {verdict}", style="dim"))  # fmt: skip
    for e in result.exchanges:
        if e.feedback is not None and e.feedback.messages:
            console.print(Text(f"{e.index}. feedback: " + " ".join(e.feedback.messages[:2]),
                               style="dim"))  # fmt: skip
    if result.practice:
        console.print(Text("What to practise next", style="bold"))
        for i, line in enumerate(result.practice, 1):
            console.print(Text(f"{i}. {line}"), highlight=False)
    for note in result.notes:
        console.print(f"note: {note}", markup=False, highlight=False)
    console.print(f"Session saved in {result.folder} (report.html, report.json, audio; "
                  "response times in timings.jsonl)", markup=False, highlight=False)  # fmt: skip


def print_script(coverage: Any, console: Console) -> None:
    """Script coverage in the terminal."""
    from rich import box
    from rich.table import Table

    t = Table(title="Script", caption=script_summary(coverage), box=box.SIMPLE_HEAD,
              title_style="bold", show_edge=False)  # fmt: skip
    for h in SCRIPT_HEADERS:
        t.add_column(h, overflow="fold")
    for r in script_rows(coverage):
        t.add_row(*r)
    console.print(t)
