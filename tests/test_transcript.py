"""Recogniser words to lexical words: split multi-word pieces, join hyphen continuations."""

from __future__ import annotations

from conftest import words

from coach.analysis import fillers, pace
from coach.transcript import Word, join_continuations, split_words


def _texts(ws: list[Word]) -> list[str]:
    return [w.text for w in ws]


def test_continuation_joins_the_word_before_with_both_times() -> None:
    ws = words(("cold", 1.0, 1.3), ("-hearted,", 1.3, 1.8), ("and", 1.9, 2.0))
    assert split_words(ws) == [
        Word("cold-hearted,", 1.0, 1.8),
        Word("and", 1.9, 2.0),
    ]


def test_continuations_chain_and_keep_the_lowest_confidence() -> None:
    ws = [Word("ill", 0.0, 0.2, 0.9), Word("-dis", 0.2, 0.4, 0.5), Word("-posed.", 0.4, 0.8, 0.7)]
    assert join_continuations(ws) == [Word("ill-dis-posed.", 0.0, 0.8, 0.5)]


def test_tiny_en_hyphen_pieces_count_as_one_word_each() -> None:
    # what tiny.en wrote for "cold-hearted, ill-disposed, old-sposed"
    ws = words(
        ("a", 0.0, 0.1), ("cold", 0.1, 0.4), ("-hearted,", 0.4, 0.8), ("ill", 0.9, 1.1),
        ("-disposed", 1.1, 1.6), ("old", 1.7, 1.9), ("-sposed", 1.9, 2.3), ("man.", 2.4, 2.7),
    )  # fmt: skip
    ws = split_words(ws)
    _, marked = fillers.tag_fillers(ws)
    lexical = fillers.lexical_words(ws, marked)
    assert _texts(lexical) == ["a", "cold-hearted,", "ill-disposed", "old-sposed", "man."]
    # 5 words over 2.7 s: 111.1 wpm (the fragments dropped left 2 words: 44.4 wpm)
    assert pace.pace(lexical).wpm == 111.1


def test_real_cutoffs_stay_fragments() -> None:
    # "mon-" ends in a hyphen: a cut-off then a restart, not a continuation
    ws = split_words(words(("mon-", 0.0, 0.2), ("-treal", 0.3, 0.5)))
    assert _texts(ws) == ["mon-", "-treal"]
    assert fillers.lexical_words(ws, set()) == []


def test_no_join_across_punctuation_at_the_start_or_for_a_minus_sign() -> None:
    ws = words(("cold,", 0.0, 0.3), ("-hearted", 0.3, 0.6), ("minus", 0.7, 0.9), ("-5", 0.9, 1.0))
    assert _texts(split_words(ws)) == ["cold,", "-hearted", "minus", "-5"]
    assert _texts(split_words(words(("-hearted", 0.0, 0.3)))) == ["-hearted"]


def test_hyphenated_word_stays_one_and_split_is_idempotent() -> None:
    ws = split_words(words(("two-week", 0.0, 0.5), ("er...um,", 0.5, 1.0)))
    assert _texts(ws) == ["two-week", "er", "um,"]
    assert split_words(ws) == ws


def test_stutters_written_with_hyphens_are_split() -> None:
    ws = split_words(words(("I-I", 0.0, 0.4), ("th-the", 0.4, 0.8), ("re-record", 0.8, 1.2)))
    assert _texts(ws) == ["i", "i", "th-", "the", "re-record"]
    # "th-" is a fragment; the repeated "i" counts twice, like "I I"
    assert _texts(fillers.lexical_words(ws, set())) == ["i", "i", "the", "re-record"]


def test_filled_pauses_and_single_letters_in_hyphenated_words_stay_apart() -> None:
    # as tiny.en wrote mfa_cutoffprogressive: "o-hmm..." holds the "hm" the speaker said
    ws = split_words(words(("o-hmm...", 6.92, 9.61), ("l-a-a-liner.", 9.65, 10.31)))
    assert _texts(ws) == ["o", "hmm.", "l", "a", "a", "liner."]
    items, _ = fillers.tag_fillers(ws)
    assert [it.text for it in items] == ["hm"]


def test_one_letter_and_filler_pieces_stay_cut_offs() -> None:
    # what tiny.en wrote for "al- al- hm al- al- aligner" in mfa_cutoffprogressive
    ws = words(("o", 6.9, 7.0), ("-hmm...", 7.0, 9.6), ("A", 9.61, 9.65), ("l", 9.65, 9.7),
               ("-a", 9.7, 9.8), ("-a", 9.8, 9.9), ("-liner.", 9.9, 10.3), ("A", 11.75, 11.83),
               ("liner.", 11.83, 11.99))  # fmt: skip
    ws = split_words(ws)
    assert _texts(ws) == ["o", "-hmm...", "A", "l", "-a", "-a", "-liner.", "A", "liner."]
    assert _texts(fillers.lexical_words(ws, set())) == ["o", "A", "l", "A", "liner."]
    assert _texts(split_words(words(("uh", 0.0, 0.2), ("-huh", 0.2, 0.4)))) == ["uh", "-huh"]


def test_a_filler_word_that_starts_a_hyphenated_word_is_not_a_filler() -> None:
    # "So -called experts" and "like -minded people": before the join, "So" and "like"
    # were taken for fillers and their continuations for cut-offs, so both words were lost
    ws = split_words(
        words(("So", 0.0, 0.2), ("-called", 0.2, 0.5), ("experts", 0.5, 0.9),
              ("disagree,", 0.9, 1.4), ("like", 1.5, 1.7), ("-minded", 1.7, 2.0),
              ("people.", 2.0, 2.4))
    )  # fmt: skip
    items, marked = fillers.tag_fillers(ws)
    assert items == []
    assert len(fillers.lexical_words(ws, marked)) == 5
