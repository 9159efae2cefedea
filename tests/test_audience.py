"""The AI audience: key terms, question checks and fallbacks (pure), a scripted model,
and the real default GGUF."""

from __future__ import annotations

import json

import pytest
from conftest import ScriptedLlm

from coach.audience import (
    Audience,
    AudienceOptions,
    Question,
    check_lead_in,
    check_question,
    condense,
    fallback_question,
    json_string_pieces,
    key_terms,
    parse_question,
)
from coach.errors import ModelError, OptionsError
from coach.llm import resolve_gguf

TALK = (
    "Good morning everyone. Today I want to make the case for code review on every pull "
    "request. Last year we merged 140 changes without review, and 23 of them broke the "
    "build. That cost us about 60 hours of firefighting. Tools like GitHub and Gerrit make "
    "review easy. A review takes 20 minutes on average."
)


def test_key_terms_numbers_names_then_frequent_words() -> None:
    terms = key_terms(TALK)
    assert terms[:3] == ["140 changes", "60 hours", "20 minutes"]
    assert "GitHub" in terms and "Gerrit" in terms
    assert "review" in terms
    assert "Good" not in terms and "Today" not in terms  # sentence starts are not names


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("Tell me about the 140 changes.", "not a question"),
        ("Why Gerrit? Why not GitHub?", "more than one question"),
        ("Why Gerrit? Because it is free.", "says more after the question"),
        ("Why " + "really " * 40 + "Gerrit?", "longer than 30 words"),
        ("What is your favourite colour?", "does not refer to the talk"),
        ("Why did 23 changes break the build?", None),
    ],
)
def test_check_question(text: str, reason: str | None) -> None:
    assert check_question(text, transcript=TALK, asked=[]) == reason


def test_check_question_rejects_repeats() -> None:
    asked = ["Why did the 140 changes break the build?"]
    assert check_question("Why did 140 changes break the build?", transcript=TALK,
                          asked=asked) == "repeats an earlier question"  # fmt: skip
    assert check_question("How long does a review take?", transcript=TALK, asked=asked) is None


def test_parse_question_tolerates_cut_replies() -> None:
    assert parse_question('{"question": "Why Gerrit?"}') == "Why Gerrit?"
    assert parse_question('{"question": "Why Ger') == "Why Ger"
    assert parse_question("nonsense") == ""


def test_fallback_questions_are_well_formed() -> None:
    for persona in ("curious", "skeptical", "expert", "a tired engineer"):
        q = fallback_question("Gerrit", persona)
        assert check_question(q, transcript=TALK, asked=[]) is None


def test_options_are_checked() -> None:
    with pytest.raises(OptionsError):
        AudienceOptions(max_words=2)


def test_audience_retries_then_falls_back() -> None:
    llm = ScriptedLlm([
        json.dumps({"question": "What is your favourite colour?"}),  # off topic
        json.dumps({"question": "Why 140 changes? And why Gerrit?"}),  # cut at the first
        json.dumps({"question": "What is your favourite colour?"}),
        "Sure. I think it is fine.",  # plain text, not a question
    ])  # fmt: skip
    a = Audience(llm, TALK)  # type: ignore[arg-type]
    q1 = a.next_question()
    assert q1.source == "llm" and q1.attempts == 2 and q1.focus == "140 changes"
    assert q1.text == "Why 140 changes?"
    assert q1.rejected and q1.rejected[0].startswith("does not refer to the talk")
    assert q1.first_token_at is not None and q1.ready_at >= q1.first_token_at  # type: ignore[operator]
    q2 = a.next_question()
    assert q2.source == "fallback" and q2.focus == "60 hours" and "60 hours" in q2.text
    assert q2.rejected[-1].startswith("not a question")
    assert a.asked == [q1.text, q2.text]
    # every turn is the same system prompt plus one user message (cached prefix)
    assert all(p[0] == a.system and len(p) == 2 for p in llm.prompts)


def test_generation_stops_at_the_question() -> None:
    """A model that goes on to answer itself is cut off at the question mark: the answer is
    never generated, let alone spoken."""
    reply = json.dumps({"question": "Why did 23 changes break the build? Because " + "x " * 200})
    llm = ScriptedLlm([reply])
    q = Audience(llm, TALK).next_question()  # type: ignore[arg-type]
    assert q.text == "Why did 23 changes break the build?" and q.attempts == 1
    assert llm.pieces_sent < 20  # the rest of the reply was not read


def test_plain_text_replies_are_read_too() -> None:
    """Without the grammar a small model may skip the JSON: the text is the question."""
    llm = ScriptedLlm(['"How were the 140 changes merged without review?"'])
    q = Audience(llm, TALK).next_question()  # type: ignore[arg-type]
    assert q.source == "llm" and q.text == "How were the 140 changes merged without review?"


def test_lead_in_is_streamed_before_the_question() -> None:
    reply = {"question": "You said 23 builds broke. How did you count them?"}
    llm = ScriptedLlm([json.dumps(reply)])
    a = Audience(llm, TALK)  # type: ignore[arg-type]
    items = list(a.ask())
    assert items[0] == "You said 23 builds broke."
    assert items[1] == "How did you count them?"
    q = items[2]
    assert isinstance(q, Question) and q.lead_in == items[0] and q.text == items[1]


def test_recited_lead_in_is_not_spoken() -> None:
    recital = "Last year we merged 140 changes without review, and 23 of them broke the build."
    llm = ScriptedLlm([
        json.dumps({"question": recital + " Why so many?"}),
        json.dumps({"question": "Why did so many of the 140 changes break?"}),
    ])  # fmt: skip
    items = list(Audience(llm, TALK).ask())  # type: ignore[arg-type]
    assert recital not in items
    assert check_lead_in(recital, transcript=TALK) == "lead-in recites the talk"


def test_follow_up_presses_on_the_same_point() -> None:
    llm = ScriptedLlm([
        json.dumps({"question": "How were the 140 changes merged without review?"}),
        json.dumps({"question": "Which of the 140 changes broke the build, concretely?"}),
    ])  # fmt: skip
    a = Audience(llm, TALK)  # type: ignore[arg-type]
    q1 = a.next_question()
    items = list(a.ask(follow_up_to=q1, answer="I'm not sure.", why="deflected"))
    fu = items[-1]
    assert isinstance(fu, Question) and fu.kind == "follow_up" and fu.focus == q1.focus
    prompt = llm.prompts[-1][1]["content"]
    assert q1.text in prompt and "I'm not sure." in prompt and "deflected" in prompt


def test_follow_up_fallback_without_a_model() -> None:
    a = Audience(None, TALK, AudienceOptions(persona="skeptical"))
    q1 = a.next_question()
    items = list(a.ask(follow_up_to=q1, answer="no idea", why="deflected"))
    fu = items[-1]
    assert isinstance(fu, Question) and fu.source == "fallback" and fu.kind == "follow_up"
    assert q1.focus in fu.text and fu.text != q1.text


def test_json_string_pieces_decodes_escapes_across_pieces() -> None:
    raw = '{"question": "Say \\"hi\\" \\u00e9t\\u00e9\\nnow?"} trailing'
    text = json.loads(raw.split(" trailing")[0].replace("\\\\", "\\"))["question"]
    for size in (1, 2, 5, 100):
        pieces = [raw[i : i + size] for i in range(0, len(raw), size)]
        assert "".join(json_string_pieces(pieces, "question")) == text.replace("\n", " ")
    assert list(json_string_pieces(['{"other": "x"}'], "question")) == []


def test_condense_keeps_key_sentences_in_order() -> None:
    filler = "This sentence is about nothing in particular at all. " * 200
    talk = "Gerrit speeds up review. " + filler + "We merged 140 changes. " + filler + "Bye now."
    short = condense(talk, max_words=60)
    assert len(short.split()) <= 60
    assert short.startswith("Gerrit speeds up review.") and short.endswith("Bye now.")
    assert "We merged 140 changes." in short and "..." in short
    assert condense(TALK, max_words=700) == TALK


def test_missing_gguf_is_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ModelError, match="--llm-model"):
        resolve_gguf(str(tmp_path / "nope.gguf"))
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a gguf at all")
    with pytest.raises(ModelError, match="not a GGUF"):
        resolve_gguf(str(bad))


@pytest.mark.models
def test_real_model_asks_grounded_single_questions() -> None:
    from coach.llm import ChatModel, LlmOptions

    llm = ChatModel.load(LlmOptions())
    a = Audience(llm, TALK, AudienceOptions(persona="skeptical"))
    qs = list(a.questions(3))
    for q in qs:
        assert check_question(q.text, transcript=TALK, asked=[]) is None, q
    assert len({q.focus for q in qs}) == 3
