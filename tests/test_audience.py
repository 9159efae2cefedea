"""The AI audience: key terms, question checks and fallbacks (pure), a scripted model,
and the real default GGUF."""

from __future__ import annotations

import json

import pytest
from conftest import ScriptedLlm

from coach.analysis import asking
from coach.analysis.claims import MISSING_TEXT, find_claims, plan_questions
from coach.audience import (
    STANCES,
    Audience,
    AudienceOptions,
    Question,
    _last,
    check_faithful,
    check_lead_in,
    check_not_stated,
    check_question,
    check_recital,
    fallback_for,
    follow_up_lines,
    json_string_pieces,
    parse_question,
    said_back,
)
from coach.errors import ModelError, OptionsError
from coach.llm import resolve_gguf

LLM_WORDING = AudienceOptions(wording="llm")

TALK = (
    "Good morning everyone. Today I want to make the case for code review on every pull "
    "request. Last year we merged 140 changes without review, and 23 of them broke the "
    "build. Tools like GitHub and Gerrit make "
    "review easy. A review takes 20 minutes on average."
)


def test_questions_are_planned_from_the_talks_claims() -> None:
    llm = ScriptedLlm(["How did you count the 23 broken builds?"] * 3)
    a = Audience(llm, TALK, AudienceOptions(persona="skeptical", wording="llm"))  # type: ignore[arg-type]
    q = a.next_question()
    plan = a.plan_for(q)
    assert plan is not None and q.focus == plan.claim.text and q.ask_kind == plan.kind
    assert q.text == "How did you count the twenty-three broken builds?"  # said in words
    prompt = llm.prompts[0][-1]["content"]
    assert plan.claim.text in prompt and "Good morning" not in prompt  # one claim, not the talk
    assert plan.kind in ("evidence", "objection", "cost", "limits")  # the skeptic's kinds
    # worked examples come before the claim, in the same (cached) prefix every turn
    assert llm.prompts[0][:-1] == [a.system, *a._shots]


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
    claims = find_claims(TALK)
    for persona in ("curious", "skeptical", "expert", "a tired engineer"):
        for plan in plan_questions(claims, persona, 4):
            lead, q = fallback_for(plan)
            assert lead.startswith("You said ") and lead.endswith(".")
            assert check_question(f"{lead} {q}", transcript=TALK, asked=[]) is None
            _, fu = fallback_for(plan, follow_up=True)
            assert fu.endswith("?")


def test_the_plain_follow_up_to_side_effects_presses_on_side_effects() -> None:
    # a live rehearsal: "If your proposal goes ahead, are there any side effects you're
    # worried about?", an answer that missed, then "Roughly what would it cost, and who
    # would pay?" (the cost kind's money question)
    talk = "So I propose that we make the ten-minute service permanent from September."
    a = Audience(None, talk, AudienceOptions(persona="skeptical", wording="grounded"))
    asked = list(a.questions(2))
    side = next(q for q in asked if "side effects" in q.text)
    follow = _last(a.ask(follow_up_to=side, answer="The checklist covers naming.", why="x"))
    assert "side effect" in follow.text and "cost" not in follow.text
    assert follow.text in follow_up_lines()
    plan = a.plan_for(side)
    assert plan is not None and fallback_for(plan, follow_up=True)[1] != follow.text


def test_said_back_speaks_to_the_speaker() -> None:
    assert said_back("Last year we merged one hundred forty changes without review.") == (
        "You said last year you merged one hundred forty changes without review."
    )
    assert said_back("I think my team should stop, because it is slow.") == (
        "You said you think your team should stop, because it is slow."
    )
    # a recogniser's slip after a whole clause is left out; a fragment is never quoted
    assert said_back("In the trial we moved one hundred sixty patients and to add to go.") == (
        "You said in the trial you moved one hundred sixty patients."
    )
    assert said_back("When from sixty-one percent to seventy-four percent over the term.") == ""


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("How many changes did you merge without review?", "asks for something the talk states"),
        ("How long does a review take on average?", "asks for something the talk states"),
        ("How many of those changes would review have caught?", None),
        ("Why did so many changes break the build?", None),
        ("What evidence shows review would have helped?", None),
    ],
)
def test_questions_must_not_ask_what_the_talk_states(question: str, reason: str | None) -> None:
    assert check_not_stated(question, TALK) == reason


def test_questions_must_not_misstate_or_recite_the_claim() -> None:
    claim = "A study in Toronto found that shops on streets with bike lanes saw sales go up."
    assert check_faithful("Why did the Toronto study find the lanes did not help?", claim)
    assert check_faithful("Why did sales go up in Toronto?", claim) is None
    assert check_faithful("What if sales don't go up here?", claim) is None
    assert check_recital("So a study in Toronto found that shops on streets with bike lanes "
                         "saw sales go up, right?", claim)  # fmt: skip
    assert check_recital("How big was the Toronto study?", claim) is None


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
    a = Audience(llm, TALK, LLM_WORDING)  # type: ignore[arg-type]
    q1 = a.next_question()
    assert q1.source == "llm" and q1.attempts == 2
    assert q1.text == "Why one hundred forty changes?"
    assert q1.rejected and q1.rejected[0].startswith("does not refer to the talk")
    assert q1.first_token_at is not None and q1.ready_at >= q1.first_token_at  # type: ignore[operator]
    q2 = a.next_question()
    assert q2.source == "fallback" and q2.lead_in.startswith("You said ")
    assert q2.focus != q1.focus  # a different claim
    assert q2.rejected[-1].startswith("not a question")
    assert a.asked == [q1.text, q2.text]
    # every turn is the same system prompt and worked examples plus one user message
    assert all(p[: len(p) - 1] == [a.system, *a._shots] for p in llm.prompts)


def test_generation_stops_at_the_question() -> None:
    """A model that goes on to answer itself is cut off at the question mark: the answer is
    never generated, let alone spoken."""
    reply = json.dumps({"question": "Why did 23 changes break the build? Because " + "x " * 200})
    llm = ScriptedLlm([reply])
    q = Audience(llm, TALK, LLM_WORDING).next_question()  # type: ignore[arg-type]
    assert q.text == "Why did twenty-three changes break the build?" and q.attempts == 1
    assert llm.pieces_sent < 20  # the rest of the reply was not read


def test_plain_text_replies_are_read_too() -> None:
    """Without the grammar a small model may skip the JSON: the text is the question."""
    llm = ScriptedLlm(['"How were the 140 changes merged without review?"'])
    q = Audience(llm, TALK, LLM_WORDING).next_question()  # type: ignore[arg-type]
    assert q.source == "llm"
    assert q.text == "How were the one hundred forty changes merged without review?"


def test_lead_in_is_streamed_before_the_question() -> None:
    reply = {"question": "You said 23 builds broke. How did you count them?"}
    llm = ScriptedLlm([json.dumps(reply)])
    a = Audience(llm, TALK, LLM_WORDING)  # type: ignore[arg-type]
    items = list(a.ask())
    assert items[0] == "You said twenty-three builds broke."
    assert items[1] == "How did you count them?"
    q = items[2]
    assert isinstance(q, Question) and q.lead_in == items[0] and q.text == items[1]


def test_recited_lead_in_is_not_spoken() -> None:
    recital = "Last year we merged 140 changes without review, and 23 of them broke the build."
    llm = ScriptedLlm([
        json.dumps({"question": recital + " Why so many?"}),
        json.dumps({"question": "Why did so many of the 140 changes break?"}),
    ])  # fmt: skip
    items = list(Audience(llm, TALK, LLM_WORDING).ask())  # type: ignore[arg-type]
    assert recital not in items
    assert check_lead_in(recital, transcript=TALK) == "lead-in recites the talk"


def test_follow_up_names_what_the_answer_missed() -> None:
    llm = ScriptedLlm([
        json.dumps({"question": "How were the 140 changes merged without review?"}),
        json.dumps({"question": "Which of the 140 changes broke the build, concretely?"}),
    ])  # fmt: skip
    a = Audience(llm, TALK, LLM_WORDING)  # type: ignore[arg-type]
    q1 = a.next_question()
    items = list(a.ask(follow_up_to=q1, answer="I'm not sure.", why="deflected"))
    fu = items[-1]
    assert isinstance(fu, Question) and fu.kind == "follow_up" and fu.focus == q1.focus
    prompt = llm.prompts[-1][-1]["content"]
    assert q1.text in prompt and "I'm not sure." in prompt and "deflected" in prompt
    plan = a.plan_for(q1)
    assert plan is not None and MISSING_TEXT[plan.kind] in prompt  # presses for what was missing


def test_the_audience_hears_the_answers() -> None:
    llm = ScriptedLlm(["How did you count the broken builds?", "What did review cost you?"])
    a = Audience(llm, TALK, LLM_WORDING)  # type: ignore[arg-type]
    q1 = a.next_question()
    a.hear(q1, "We counted them from the build logs, all twenty-three.")
    a.next_question()
    prompt = llm.prompts[-1][-1]["content"]
    assert "from the build logs" in prompt and q1.text in prompt


def test_follow_up_fallback_without_a_model() -> None:
    a = Audience(None, TALK, AudienceOptions(persona="skeptical"))
    q1 = a.next_question()
    assert q1.source == "grounded" and q1.lead_in.startswith("You said")
    items = list(a.ask(follow_up_to=q1, answer="no idea", why="deflected"))
    fu = items[-1]
    assert isinstance(fu, Question) and fu.source == "fallback" and fu.kind == "follow_up"
    assert fu.text != q1.text and fu.text.endswith("?")


def test_json_string_pieces_decodes_escapes_across_pieces() -> None:
    raw = '{"question": "Say \\"hi\\" \\u00e9t\\u00e9\\nnow?"} trailing'
    text = json.loads(raw.split(" trailing")[0].replace("\\\\", "\\"))["question"]
    for size in (1, 2, 5, 100):
        pieces = [raw[i : i + size] for i in range(0, len(raw), size)]
        assert "".join(json_string_pieces(pieces, "question")) == text.replace("\n", " ")
    assert list(json_string_pieces(['{"other": "x"}'], "question")) == []


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
    a = Audience(llm, TALK, AudienceOptions(persona="skeptical", wording="llm"))
    qs = list(a.questions(3))
    for q in qs:
        assert check_question(q.spoken_text, transcript=TALK, asked=[]) is None, q
    # every claim is asked about before any is asked about twice
    assert len({q.focus for q in qs}) == min(3, len(a.claims))


def test_a_second_question_on_the_same_point_does_not_quote_it_again() -> None:
    talk = (
        "Good evening. We plan to switch the whole help page to live chat in "
        "November, with two people on it at lunchtime."
    )
    a = Audience(None, talk, AudienceOptions(persona="skeptical"))
    first, second = a.next_question(), a.next_question()
    assert first.lead_in.startswith("You said you plan")
    assert second.focus == first.focus and second.lead_in == "Still on that point."
    assert second.text != first.text
    third = a.next_question()
    assert third.text not in (first.text, second.text) or third.focus != first.focus


@pytest.mark.parametrize("persona", ["skeptical", "curious", "expert"])
def test_what_the_talk_puts_forward_is_asked_about_as_a_whole_first(persona: str) -> None:
    talk = (
        "Good evening. Last year the average wait at the front desk was forty-seven minutes "
        "across the three floors. So I propose that we switch the whole help page to live "
        "chat in November, with two people on it at lunchtime."
    )
    a = Audience(None, talk, AudienceOptions(persona=persona))
    first = a.next_question(optional=True)
    assert first is not None and not first.lead_in.startswith("You said")
    assert "your proposal" in first.text
    rest = list(a.questions(3))
    # a second about the proposal as a whole, of another kind; then one that quotes what it
    # asks about (they quoted nothing), and the whole proposal's "what could still hold it
    # up?" is not followed by "what could delay that?"
    assert len(rest) >= 2 and "your proposal" in rest[0].text
    assert rest[0].ask_kind != first.ask_kind and rest[0].text != first.text
    assert rest[1].lead_in.startswith("You said")
    if any("hold it up" in q.text for q in (first, rest[0])):
        assert all(q.text != "What could delay that?" for q in rest)


def test_a_stance_just_said_is_not_said_again() -> None:
    # round by: "I'm wary of this. If your request goes ahead, are there any side effects
    # you're worried about?", then "I'm wary of this. If your request is approved, what
    # could still hold it up?" (0 of 8 verdicts on such second questions)
    talk = (
        "Good evening. Our bridge gets eight hundred visitors a day in the dry season. So "
        "I'm asking you to approve a visitor fee of fifty rupees, paid at the village gate. "
        "We are asking for the open book and a quarterly report on how it is spent. Thank you."
    )
    for persona in ("skeptical", "expert", "curious"):
        asked = list(Audience(None, talk, AudienceOptions(persona=persona)).questions(3))
        assert len(asked) >= 2
        for before, after in zip(asked, asked[1:], strict=False):
            said = [line for line in STANCES[persona].values() if before.lead_in.endswith(line)]
            assert not said or not after.lead_in.endswith(said[0]), (before, after)
        # nor is what was asked of the whole proposal asked again of one of its points
        wholes = [q.text for q in asked if not q.lead_in.startswith(("You said", "Still"))]
        for q in asked:
            if q.lead_in.startswith(("You said", "Still")):
                assert not any(q.text.lower().rstrip("?") in w.lower() for w in wholes), q


def test_the_question_about_the_whole_proposal_is_prepared_during_the_talk() -> None:
    talk = (
        "Good evening. Last year the average wait at the front desk was forty-seven minutes "
        "across the three floors. So I propose that we switch the whole help page to live "
        "chat in November, with two people on it at lunchtime. Thank you."
    )
    a = Audience(None, "", AudienceOptions(persona="skeptical"))
    # during the talk its last sentence may be unfinished: the ask counts once the next began
    prepared = [a.prepare(talk[:n], unsure=[]) for n in range(40, len(talk) + 1, 20)]
    whole = [q for q in prepared if q is not None and "your proposal" in q.text]
    assert len(whole) == 1  # once, its speech made ahead
    # the stance is said while the last words are recognised, the question once checked
    begun = a.take_early()
    assert begun is not None and begun.spoken_text == whole[0].spoken_text
    assert begun.lead_in in STANCES["skeptical"].values()
    assert a.take_early() is None  # once
    a.update(talk)
    asked = a.next_question(optional=True)
    assert asked is not None and asked.spoken_text == whole[0].spoken_text
    # the next question may quote the ask: the first quoted nothing
    after = a.next_question(optional=True)
    assert after is None or not after.lead_in.startswith("Still on that point")


def test_a_whole_proposal_question_begun_early_is_checked_against_the_last_words() -> None:
    talk = (
        "Good evening. Last year the average wait at the front desk was forty-seven minutes "
        "across the three floors. So I propose that we switch the whole help page to live "
        "chat in November, with two people on it at lunchtime. Two of our staff have tried "
        "it already."
    )
    answered = " I know the objections: the cost, and the risk to the staff on the phones."
    for persona in ("skeptical", "expert", "curious"):
        a = Audience(None, "", AudienceOptions(persona=persona))
        for n in range(40, len(talk) + 1, 20):
            a.prepare(talk[:n], unsure=[])
        begun = a.take_early()
        assert begun is not None and begun.lead_in, persona
        a.update(talk + answered)  # the last words answered what was begun
        asked = a.next_question(optional=True)
        assert asked is not None and asked.lead_in == begun.lead_in
        assert "argument against" not in asked.text, (persona, asked.text)
        assert asked.text in [q for _k, q in asking.whole_proposal_questions(talk + answered)] or (
            asked.text == "Could you say a little more about your proposal?"
        )
    # a persona with no stance has nothing to say before the question is checked
    described = Audience(None, "", AudienceOptions(persona="a retired ferry captain"))
    for n in range(40, len(talk) + 1, 20):
        described.prepare(talk[:n], unsure=[])
    assert described.take_early() is None


def test_a_grounded_audience_stops_rather_than_ask_a_plain_question() -> None:
    talk = (
        "Good evening. Last year the average wait at the front desk was 47 minutes across "
        "the three floors."
    )
    audience = Audience(None, talk, AudienceOptions(wording="grounded"))
    asked = list(audience.questions(4))
    assert [q.text for q in asked] == ["How was that measured?"]
    assert audience.next_question(optional=True) is None


def test_no_question_quotes_an_unsure_word() -> None:
    talk = (
        "Good evening. Last year the average wait at the front desk was 47 minutes across "
        "the three floors."
    )
    audience = Audience(
        None, talk, AudienceOptions(wording="grounded"), unsure=[("front", "desk", "was")]
    )
    assert audience.next_question(optional=True) is None
    q = audience.next_question()  # not optional: a plain question, its lead-in not quoted
    assert q is not None and "desk" not in q.spoken_text


def test_no_question_at_all_when_none_fits() -> None:
    toast = "Jimmy started here in 1987. He's off to spend more time with Margaret. To Jimmy!"
    audience = Audience(None, toast, AudienceOptions(wording="grounded"))
    assert list(audience.questions(3)) == []
    assert audience.next_question() is not None  # a question that is not optional: plain


def test_a_proposal_no_clause_can_say_back_is_still_asked_about() -> None:
    talk = ("Good evening. Our compressors lose a third of their air through leaks. "
            "So here's my ask: I'd like approval for two things. First, a leak repair "
            "programme. Second, one new compressor. Thank you.")  # fmt: skip
    sceptic = Audience(None, talk, AudienceOptions(persona="skeptical", wording="grounded"))
    asked = list(sceptic.questions(3))
    assert [q.spoken_text for q in asked] == [
        "Let me push back a little. What do you see as the strongest argument against what "
        "you're asking for?",
        "I'm wary of this. If your request goes ahead, are there any side effects you're "
        "worried about?",
    ]
    assert asked[0].ask_kind == "objection" and "my ask" in asked[0].focus
    curious = Audience(None, talk, AudienceOptions(persona="curious", wording="grounded"))
    assert [q.text for q in curious.questions(3)] == [
        "If your request is approved, what could still hold it up?",
        "If your request goes ahead, are there any side effects you're worried about?",
    ]
    # a talk that puts nothing forward still has no question
    report = talk.replace("So here's my ask: I'd like approval for two things. ", "")
    assert list(Audience(None, report, AudienceOptions(wording="grounded")).questions(3)) == []


def test_the_whole_proposal_comes_before_a_quoted_question() -> None:
    talk = (
        "Good evening. Last year the average wait at the front desk was 47 minutes across "
        "the three floors. So here's my ask: I'd like approval for two things. Thank you."
    )
    asked = list(Audience(None, talk, AudienceOptions(wording="grounded")).questions(3))
    assert len(asked) == 3 and all("your request" in q.text for q in asked[:2])
    assert asked[2].lead_in.startswith("You said ")


def test_a_toast_is_not_questioned() -> None:
    toast = ("Frank started here in 1987. Last year the team had eleven breakdowns on line "
             "two. So would you all stand and raise your glasses to Frank.")  # fmt: skip
    for persona in ("curious", "skeptical"):
        audience = Audience(None, toast, AudienceOptions(persona=persona, wording="grounded"))
        assert list(audience.questions(3)) == []
    speech = toast.replace(" So would you all stand and raise your glasses to Frank.", "")
    assert list(Audience(None, speech, AudienceOptions(wording="grounded")).questions(3))


def test_a_question_begun_before_a_toasts_last_words_asks_only_for_more() -> None:
    from coach.audience import EARLY_FALLBACK

    talk = [
        "Frank started here in 1987.",
        "Over the six months, missed handovers came down to eighteen percent.",
        "He fixed every one of them himself.", "So please raise your glasses to Frank.",
    ]  # fmt: skip
    audience = Audience(None, "", AudienceOptions(wording="grounded"))
    for i in range(2, len(talk) + 1):
        audience.prepare(" ".join(talk[:i]))
    begun = audience.take_early()
    assert begun is not None and begun.lead_in.startswith("You said ")
    audience.update(" ".join(talk))
    asked = audience.next_question(optional=True)
    assert asked is not None and asked.text == EARLY_FALLBACK
    assert audience.next_question(optional=True) is None


def test_unsure_words_steer_the_quote_to_another_claim() -> None:
    talk = (
        "Last year the average wait at the front desk was 47 minutes across the three floors. "
        "The crew costs about 38,000 pounds a year."
    )
    sure = Audience(None, talk, AudienceOptions(wording="grounded"))
    unsure = Audience(
        None, talk, AudienceOptions(wording="grounded"), unsure=[("front", "desk", "was")]
    )
    assert all("desk" not in q.spoken_text for q in unsure.questions(3))
    asked = [sure.next_question(), sure.next_question()]  # not optional: both claims
    assert any(q is not None and "desk" in q.spoken_text for q in asked)


def test_no_third_question_on_one_point() -> None:
    talk = "So I propose that from next month we start with one reviewer per change, not two."
    audience = Audience(None, talk, AudienceOptions(wording="grounded"))
    asked = list(audience.questions(4))
    assert 1 <= len(asked) <= 2


def test_with_a_script_the_audience_quotes_it_not_the_mishearing() -> None:
    script = "The new van costs about $14,000. We'd use it for the Saturday rounds."
    heard = "The new van costs about $40,000. We'd use it for the Saturday rounds."
    plain = Audience(None, heard, AudienceOptions(wording="grounded"))
    with_script = Audience(None, heard, AudienceOptions(wording="grounded"), script=script)
    assert "forty thousand" in plain.next_question().spoken_text
    q = with_script.next_question()
    assert "fourteen thousand" in q.spoken_text and "forty" not in q.spoken_text


def test_a_script_sentence_is_quoted_even_where_the_recogniser_was_unsure() -> None:
    script = "The new van costs about $14,000."
    heard = "The new van costs about $14,000."
    unsure = [("new", "van", "costs")]
    assert Audience(None, heard, AudienceOptions(wording="grounded"),
                    unsure=unsure).next_question(optional=True) is None  # fmt: skip
    q = Audience(None, heard, AudienceOptions(wording="grounded"), unsure=unsure,
                 script=script).next_question(optional=True)  # fmt: skip
    assert q is not None and "van" in q.spoken_text


def test_a_persona_with_a_stance_says_where_it_stands_and_never_asks_twice() -> None:
    talk = (
        "Ridership went up from three thousand to four thousand one hundred a day. "
        "So I propose that we make the ten-minute service permanent from September."
    )
    audience = Audience(None, talk, AudienceOptions(persona="skeptical", wording="grounded",
                                                    stance=True))  # fmt: skip
    asked = [q.spoken_text for q in (audience.next_question() for _ in range(6)) if q]
    stanced = [t for t in asked if t.startswith("You said ")]
    said = [next((s for s in STANCES["skeptical"].values() if s in t), "") for t in asked]
    # each question quoting the talk says where the persona stands, unless the question
    # before it just said the same
    for i, t in enumerate(asked):
        if t.startswith("You said "):
            assert said[i] or (i > 0 and said[i - 1]), t
    assert stanced and any(said)
    assert all(not a or a != b for a, b in zip(said, said[1:], strict=False))
    assert len(set(asked)) == len(asked)
    plain = Audience(
        None, talk, AudienceOptions(persona="skeptical", wording="grounded", stance=False)
    )
    first = plain.next_question()
    assert first is not None and not any(
        s in first.spoken_text for s in STANCES["skeptical"].values()
    )


def test_a_moment_the_speaker_told_is_not_doubted() -> None:
    talk = "I remember one night there were four deliveries before midnight on the ward."
    for persona in ("skeptical", "expert"):
        audience = Audience(None, talk, AudienceOptions(persona=persona, wording="grounded"))
        q = audience.next_question()
        assert q is not None and q.text in asking.STORY_QUESTIONS
        assert not any(s in q.spoken_text for s in STANCES[persona].values())
    curious = Audience(None, talk, AudienceOptions(persona="curious", wording="grounded"))
    q = curious.next_question()
    assert q is not None and "That's interesting." in q.spoken_text


PRACTICE = [
    "Good morning everyone.",
    "Today I want to make the case for code review on every pull request.",
    "Last year we merged 140 changes without review, and 23 of them broke the build.",
    "That cost us about 60 hours of firefighting.",
    "We would start with one reviewer per change, and maybe add a second one for payments.",
    "Let's just try it for two weeks.", "Thank you.",
]  # fmt: skip


def _prepared(persona: str = "curious") -> Audience:
    """An audience that prepared its questions as the talk went, its last words unheard."""
    audience = Audience(None, "", AudienceOptions(persona=persona))
    for i in range(2, len(PRACTICE)):
        audience.prepare(" ".join(PRACTICE[:i]))
    return audience


def test_a_model_words_no_question_for_the_grounded_audience_during_the_talk() -> None:
    """Worded from the talk (the default), a point no frame fits gets no question from the
    model in its place: live, as on the bench, the audience asks what it can quote."""
    llm = ScriptedLlm(["What was the compression rate in your power bill?"] * 4)
    talk = [
        "Good morning.", "Compressed air is about 28 percent of our power bill.",
        "After dust extraction it is the biggest user in this building.", "Thank you.",
    ]  # fmt: skip
    audience = Audience(llm, "", AudienceOptions(wording="grounded"))  # type: ignore[arg-type]
    for i in range(2, len(talk) + 1):
        assert audience.prepare(" ".join(talk[:i])) is None
    assert llm.prompts == [] and audience.candidates == []
    worded = Audience(llm, "", AudienceOptions(wording="llm"))  # type: ignore[arg-type]
    assert worded.prepare(" ".join(talk)) is not None  # the model's wording: its own


def test_the_first_question_begins_before_the_last_words_and_is_asked_whole() -> None:
    audience = _prepared()
    begun = audience.take_early()
    assert begun is not None and begun.lead_in.startswith("You said ")
    assert audience.take_early() is None  # one question begins early, once
    audience.update(" ".join(PRACTICE))
    first = audience.next_question(optional=True)
    assert first is not None and first.spoken_text == begun.spoken_text
    assert audience.plan_for(first) is not None  # its answer is judged against its point
    second = audience.next_question(optional=True)
    assert second is None or second.text != first.text


def _begun_then_answered(
    persona: str, monkeypatch: pytest.MonkeyPatch, *, nothing_fits: bool = False
) -> tuple[Audience, Question, Question]:
    """A question begun early, then the whole talk heard with its last words answering
    every prepared question (and, ``nothing_fits``, any other about the same point):
    (the audience, the question begun, the one asked)."""
    audience = _prepared(persona)
    begun = audience.take_early()
    assert begun is not None
    monkeypatch.setattr(Audience, "_holds", lambda self, plan, q, asked: False)
    if nothing_fits:
        monkeypatch.setattr(Audience, "_grounded", lambda self, plan, asked: None)
    audience.update(" ".join(PRACTICE))
    return audience, begun, audience.next_question(optional=True)


def test_a_question_begun_early_keeps_its_quote_when_the_last_words_answer_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _audience, begun, first = _begun_then_answered("expert", monkeypatch)
    # its quote was said: another question about the same point follows it
    assert first.lead_in == begun.lead_in and first.focus == begun.focus
    assert first.text != begun.text and first.text.endswith("?")


def test_a_question_begun_early_ends_plainly_when_nothing_else_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from coach.audience import EARLY_FALLBACK

    audience, begun, first = _begun_then_answered("skeptical", monkeypatch, nothing_fits=True)
    assert first.spoken_text == f"{begun.lead_in} {EARLY_FALLBACK}"
    assert audience.plan_for(first) is not None


def test_no_question_begins_early_once_questions_were_asked() -> None:
    audience = _prepared()
    audience.update(" ".join(PRACTICE))
    assert audience.next_question(optional=True) is not None
    assert audience.take_early() is None


def test_warm_up_times_a_follow_up_and_a_model_too_slow_for_it_gives_way_at_once() -> None:
    import time

    llm = ScriptedLlm(["ok", json.dumps({"question": "Which source gave that figure?"})])
    a = Audience(llm, TALK, AudienceOptions(persona="skeptical"))  # type: ignore[arg-type]
    a.warm_up()
    assert a.follow_up_s is not None and a.follow_up_s >= 0
    assert "did not give" in llm.prompts[-1][-1]["content"]  # timed on a follow-up's prompt
    q1 = a.next_question()
    asked = len(llm.prompts)
    a.follow_up_s = 5.0  # this machine's model takes 5 s for a follow-up
    fu = list(a.ask(follow_up_to=q1, answer="no idea", why="deflected",
                    deadline=time.monotonic() + 1.0))[-1]  # fmt: skip
    assert isinstance(fu, Question) and fu.source == "fallback" and len(llm.prompts) == asked
    llm.replies.append(json.dumps({"question": "Where did the twenty-three come from?"}))
    a.follow_up_s = 0.01  # a quick one is given its chance
    fu = list(a.ask(follow_up_to=q1, answer="no idea", why="deflected",
                    deadline=time.monotonic() + 30.0))[-1]  # fmt: skip
    assert len(llm.prompts) == asked + 1 and fu.source == "llm"


def test_a_prepared_question_the_next_sentence_answered_is_not_asked() -> None:
    """Prepared while its claim was the last sentence heard, "how was that measured?" is
    dropped once the next sentence says how."""
    talk = PRACTICE[:4] + ["We counted those hours from the on-call log, ticket by ticket."]
    talk += PRACTICE[4:]
    audience = Audience(None, "", AudienceOptions(persona="expert"))
    for i in range(2, len(talk)):
        audience.prepare(" ".join(talk[:i]))
        if i == 5:  # the claim is the last whole sentence heard (the next one still open)
            assert any(q.text == "How was that measured?" for _p, q in audience.candidates)
    audience.update(" ".join(talk))
    first = audience.next_question(optional=True)
    assert first is not None and first.text != "How was that measured?"


_UNWORDED_ASK = (
    "Good evening. The footbridge over the Water of Leith has been closed since March after "
    "the flood. A repair would cost about forty thousand pounds from the ward budget. "
    "Tonight it comes down to your hands, one way or the other, on the repair. The "
    "contractor can start in June if the money is there. Thank you."
)
"""An ask in words no pattern of :func:`asking.put_forward` knows."""


def _asked_whole(text: str) -> bool:
    """Whether a question is about an ask the judge model read, as a whole."""
    return "your request" in text or asking.ASKED_FOR in text


class Reader:
    """A stand-in for the judge model's reading of a talk for its ask: ``p`` for a talk
    that has said ``after`` (else ``before``); every transcript read is kept."""

    def __init__(self, p: float, after: str = "", fail: BaseException | None = None,
                 before: float = 0.3) -> None:  # fmt: skip
        self.p, self.after, self.fail, self.before = p, after, fail, before
        self.read: list[str] = []

    def __call__(self, transcript: str, cancel: object) -> float:
        self.read.append(transcript)
        if self.fail is not None:
            raise self.fail
        return self.p if self.after in transcript else self.before


def test_an_ask_the_judge_model_reads_is_asked_about_as_a_whole() -> None:
    assert asking.put_forward(_UNWORDED_ASK) is None
    for persona in ("skeptical", "curious", "expert"):
        plain = Audience(None, _UNWORDED_ASK, AudienceOptions(persona=persona))
        assert all(not _asked_whole(q.text) for q in plain.questions(3))
        read = Reader(0.9)
        a = Audience(None, _UNWORDED_ASK, AudienceOptions(persona=persona), asks=read)
        first = a.next_question(optional=True)
        assert first is not None and _asked_whole(first.text), first
        assert not first.lead_in.startswith("You said")
        assert read.read == [_UNWORDED_ASK]  # read whole once: no reading during the talk
        # below the threshold it is no ask
        low = Audience(None, _UNWORDED_ASK, AudienceOptions(persona=persona),
                       asks=Reader(asking.ASKS_LIKELY - 0.01))  # fmt: skip
        assert all(not _asked_whole(q.text) for q in low.questions(3))


def test_the_judge_model_is_not_asked_when_the_words_say_it_or_a_glass_is_raised() -> None:
    read = Reader(0.9)
    worded = _UNWORDED_ASK.replace("Tonight it comes", "So I propose we fund it. It comes")
    qs = list(Audience(None, worded, AudienceOptions(persona="skeptical"), asks=read).questions(2))
    assert qs and "your proposal" in qs[0].text and read.read == []
    toast = ("Friends, thirty years Marta ran this kitchen, and every one of us learned from "
             "her. Please raise your glasses to Marta.")  # fmt: skip
    a = Audience(None, "", AudienceOptions(persona="skeptical"), asks=read)
    for n in range(20, len(toast) + 1, 20):
        a.prepare(toast[:n], unsure=[])
    assert asking.is_tribute(toast) and len(read.read) == 1  # read before the glass was raised
    a.update(toast)
    q = a.next_question(optional=True)
    assert q is None or not _asked_whole(q.text)  # a toast's listeners raise a glass


def test_the_readings_made_during_the_talk_stand_when_it_ends() -> None:
    read = Reader(0.9, after="your hands")
    a = Audience(None, "", AudienceOptions(persona="skeptical"), asks=read)
    for n in range(30, len(_UNWORDED_ASK) + 1, 25):
        a.prepare(_UNWORDED_ASK[:n], unsure=[])
    assert read.read and len(read.read) == len(set(read.read))  # each talk so far read once
    first_yes = next(t for t in read.read if "your hands" in t)
    assert first_yes.endswith("on the repair.")  # read as soon as the sentence was whole
    begun = a.take_early()  # the stance said while the last words are recognised
    assert begun is not None and begun.lead_in in STANCES["skeptical"].values()
    a.update(_UNWORDED_ASK)
    asked = a.next_question(optional=True)
    assert asked is not None and asked.spoken_text == begun.spoken_text
    assert _asked_whole(asked.text) and "your hands" in asked.focus  # where it was read
    assert _UNWORDED_ASK not in read.read  # the whole talk is not read again at its end


def test_a_talk_not_read_as_an_ask_during_it_is_read_once_more_when_it_ends() -> None:
    # the ask in the last utterance, which the readings during the talk never see
    talk = _UNWORDED_ASK.replace("Thank you.", "I'd be glad to see your names on the sheet.")
    read = Reader(0.9, after="your names", before=asking.ASKS_WORTH_READING_AGAIN + 0.1)
    a = Audience(None, "", AudienceOptions(persona="curious"), asks=read)
    for n in range(30, len(talk) - 40, 25):
        a.prepare(talk[:n], unsure=[])
    assert read.read and not any("your names" in t for t in read.read)
    a.update(talk)  # nothing was begun early (else its question is asked first)
    before = len(read.read)
    qs = list(a.questions(3))
    assert read.read[before:] == [talk]  # read once more, whole, and only once
    assert qs and _asked_whole(qs[0].text)
    # a talk read far from an ask during it (an explainer) is not read again at its end
    far = Reader(0.9, after="your names", before=asking.ASKS_WORTH_READING_AGAIN - 0.1)
    b = Audience(None, "", AudienceOptions(persona="curious"), asks=far)
    for n in range(30, len(talk) - 40, 25):
        b.prepare(talk[:n], unsure=[])
    b.update(talk)
    during = len(far.read)
    assert not any(_asked_whole(q.text) for q in b.questions(3)) and len(far.read) == during


def test_a_reading_stopped_at_the_talks_end_leaves_the_last_one_and_a_failing_model_none(
) -> None:  # fmt: skip
    from coach.llm import GenerationCancelled

    read = Reader(0.9)
    a = Audience(None, "", AudienceOptions(persona="skeptical"), asks=read)
    a.prepare(_UNWORDED_ASK[:150], unsure=[])
    read.fail = GenerationCancelled("the talk ended")
    a.prepare(_UNWORDED_ASK, unsure=[])
    a.update(_UNWORDED_ASK)
    q = a.next_question(optional=True)
    assert q is not None and _asked_whole(q.text)  # the reading before it stands
    broken = Reader(0.9, fail=RuntimeError("out of memory"))
    b = Audience(None, _UNWORDED_ASK, AudienceOptions(persona="skeptical"), asks=broken)
    qs = list(b.questions(3))
    assert qs and all(not _asked_whole(q.text) for q in qs)
    assert len(broken.read) == 1 and b.asks is None  # not asked again
