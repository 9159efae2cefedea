"""The answer judge's model: its prompt (pure) and its odds from a real GGUF."""

from __future__ import annotations

import math

import pytest

from coach.judging import (
    MAX_ANSWER_WORDS,
    AnswerJudge,
    JudgeOptions,
    judge_messages,
    relevance_prompts,
)
from coach.llm import ChatModel, LlmOptions


def test_a_long_answer_is_cut_and_an_empty_context_is_named() -> None:
    msgs = judge_messages("", "Why?", "word " * (MAX_ANSWER_WORDS + 50))
    user = msgs[1]["content"]
    assert user.count("word") == MAX_ANSWER_WORDS and "..." in user
    assert "Situation: A question after a talk." in user


def test_a_gguf_without_a_chat_template_gets_a_plain_layout() -> None:
    class NoTemplate:
        metadata: dict[str, str] = {}

    model = ChatModel(NoTemplate(), LlmOptions(), path=None)  # type: ignore[arg-type]
    text = model._chat_prompt([{"role": "system", "content": "Be brief."},
                               {"role": "user", "content": "Hi?"}])  # fmt: skip
    assert text == "System: Be brief.\nUser: Hi?\nAssistant:"


def test_relevance_prompts_differ_only_by_the_question() -> None:
    asked, alone = relevance_prompts(" A talk about the roof. ", " How long? ")
    assert asked == "A talk about the roof.\nQuestion: How long?\nAnswer:"
    assert alone == "A talk about the roof.\nAnswer:"
    assert relevance_prompts("", "Why?")[1] == "A question after a talk.\nAnswer:"


@pytest.mark.models
def test_a_real_model_finds_an_answer_likelier_after_its_own_question() -> None:
    judge = AnswerJudge.load(JudgeOptions(model="qwen2.5-coder-0.5b-instruct", threads=2))
    ctx, q = "A caretaker's talk about fixing the gym roof.", "How long will the gym be closed?"
    answer = "About three weeks, over the summer holidays."
    asked, _alone = relevance_prompts(ctx, q)
    logprobs = judge.model.continuation_logprobs(asked, " " + answer)
    assert len(logprobs) == len(judge.model._model().tokenize((" " + answer).encode(),
                                                              add_bos=False))  # fmt: skip
    assert all(p <= 0.0 for p in logprobs)
    on = judge.relevance(ctx, q, answer)
    aside = judge.relevance(ctx, q, "My dog sat with me the whole weekend while I wrote it.")
    assert on.per_token_nats > aside.per_token_nats and on.total_nats > aside.total_nats
    again = judge.relevance(ctx, q, answer)  # after other prompts: the same, to a few digits
    assert math.isclose(again.total_nats, on.total_nats, abs_tol=0.3)
    assert judge.model.continuation_logprobs(asked, " " + answer, max_tokens=3) == pytest.approx(
        logprobs[:3], abs=0.1
    )


@pytest.mark.models
def test_odds_from_a_real_model_are_repeatable_after_another_prompt() -> None:
    judge = AnswerJudge.load(JudgeOptions(model="qwen2.5-coder-0.5b-instruct", threads=2))
    ctx, q = "A caretaker's talk about fixing the gym roof.", "How long will the gym be closed?"
    answer = "About three weeks, over the summer holidays."
    first = judge.support(ctx, q, answer)
    assert 0.0 < first < 1.0
    judge.support(ctx, "Who pays for it?", "The council does.")  # another prompt between
    # the same tokens evaluated in other batches differ in the last float digits (measured:
    # 0.285 at once, 0.279 evaluated in three parts, with the 0.5B model)
    assert math.isclose(judge.support(ctx, q, answer), first, abs_tol=0.02)
    probs = judge.model.choice_probs(judge_messages(ctx, q, answer), ["yes", "no"])
    assert math.isclose(sum(probs), 1.0) and math.isclose(probs[0], first, abs_tol=0.02)


def test_a_missing_judge_model_names_the_judge_option() -> None:
    from coach.errors import ModelError

    with pytest.raises(ModelError, match="--judge-model PATH.*qwen2.5-coder-1.5b-instruct"):
        AnswerJudge.load(JudgeOptions(model="/nonexistent/judge.gguf"))


@pytest.mark.models
def test_a_closed_model_frees_its_memory_and_says_so_when_used() -> None:
    from coach.errors import ModelError

    llm = ChatModel.load(LlmOptions(model="qwen2.5-coder-0.5b-instruct", threads=2))
    judge = AnswerJudge.load(JudgeOptions(model="qwen2.5-coder-0.5b-instruct"), loaded=llm)
    assert judge.model is llm  # one file, loaded once
    llm.close()
    assert llm.closed
    with pytest.raises(ModelError, match="closed to free its memory"):
        judge.support("A talk.", "Why?", "Because.")
    with pytest.raises(ModelError, match="closed"):
        llm.complete([{"role": "user", "content": "Hi"}])
    other = AnswerJudge.load(JudgeOptions(model="qwen2.5-coder-0.5b-instruct"), loaded=llm)
    assert other.model is not llm  # a closed model is loaded anew


def test_a_long_talk_is_read_from_a_later_start_in_whole_blocks() -> None:
    from coach.judging import ASKS_QUESTION, asks_messages

    short = asks_messages("We need a new roof.", max_words=40)
    assert short[1]["content"] == f"Transcript:\nWe need a new roof.\n\n{ASKS_QUESTION}"
    words = [f"w{i}" for i in range(45)]
    first = asks_messages(" ".join(words), max_words=40)[1]["content"]
    later = asks_messages(" ".join(words + ["w45", "w46"]), max_words=40)[1]["content"]
    # five words too many: a block of ten dropped, and two words more drop nothing more
    assert first.startswith("Transcript:\n... w10 w11") and "w9 " not in first
    assert later.startswith(first.split(f"\n\n{ASKS_QUESTION}")[0])


@pytest.mark.models
def test_a_real_model_reads_a_talk_so_far_and_a_set_event_stops_it() -> None:
    import threading

    from coach.judging import ASKS_N_CTX
    from coach.llm import GenerationCancelled

    judge = AnswerJudge.load(JudgeOptions(model="qwen2.5-coder-0.5b-instruct"),
                             n_ctx=ASKS_N_CTX, threads=1)  # fmt: skip
    talk = "The hall's roof leaks every winter. " * 30
    p = judge.asks_listeners(talk)
    assert 0.0 < p < 1.0
    stop = threading.Event()
    stop.set()
    with pytest.raises(GenerationCancelled):
        judge.asks_listeners(talk + "So please vote for the new roof tonight.", cancel=stop)
    # what was evaluated stays cached, and the reading after it is as if never stopped
    again = judge.asks_listeners(talk)
    assert math.isclose(again, p, abs_tol=0.02)
    judge.model.set_threads(2)
    assert 0.0 < judge.asks_listeners(talk + "So please vote for the new roof tonight.") < 1.0


@pytest.mark.models
def test_a_session_loads_the_judge_beside_the_talk_to_read_it_and_frees_the_llm_after() -> None:
    from conftest import ManifestTranscriber

    from coach.asr import AsrOptions
    from coach.live.models import Models

    def models(read_asks: bool, llm: str) -> Models:
        return Models(AsrOptions(), LlmOptions(model=llm, threads=1), None,
                      transcriber=ManifestTranscriber(), read_asks=read_asks,  # type: ignore[arg-type]
                      judge=JudgeOptions(model="qwen2.5-coder-0.5b-instruct"))  # fmt: skip

    off = models(False, "qwen2.5-coder-0.5b-instruct")
    off.wait()
    assert off.asks_reader() is None and off._judge is None  # loaded once the questions end
    same = models(True, "qwen2.5-coder-0.5b-instruct")
    same.wait()
    reader = same.asks_reader()
    assert reader is not None and 0.0 < reader("We need a new roof. Please vote yes.", None) < 1.0
    judge = same.judge(free_llm=True)
    assert judge is not None and judge.model is same.llm() and not judge.model.closed  # one file
