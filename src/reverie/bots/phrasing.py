"""Putting an association into the shape a turn's clue restriction asks for, in the
table's language (Imaginarium's clouds: a number of words, a question, a story)."""

from __future__ import annotations

from reverie.rules.association.clues import count_words

# Words put before an association to reach a word count, by how many are missing; each
# keeps the association grammatical as it is written (a noun phrase in the nominative).
_PAD = {
    "en": {1: "simply {}", 2: "all about {}", 3: "it is all {}"},
    "ru": {1: "снова {}", 2: "и снова {}", 3: "и вот опять {}"},
    "it": {1: "ancora {}", 2: "e ancora {}", 3: "ed ecco ancora {}"},
}
_QUESTION = {"en": "Is it {}?", "ru": "Может быть, {}?", "it": "Forse {}?"}
_STORY = {
    "en": "Once upon a time: {}.",
    "ru": "Жили-были, и вот — {}.",
    "it": "C'era una volta: {}.",
}
_WANT = {"four_words": 4, "three_words": 3}


def shape(text: str, restriction: str | None, lang: str) -> str | None:
    """``text`` as a clue that meets ``restriction``, or None if it cannot.

    >>> shape("a secret", "four_words", "en"), shape("home", "question", "it")
    ('all about a secret', 'Forse home?')
    >>> shape("the answer to everything", "three_words", "en") is None
    True
    """
    lang = lang if lang in _PAD else "en"
    want = _WANT.get(restriction or "")
    if want is not None:
        have = count_words(text)
        if have == want:
            return text
        template = _PAD[lang].get(want - have)
        return template.format(text) if template else None
    if restriction == "question":
        return _QUESTION[lang].format(text)
    if restriction == "story":
        return _STORY[lang].format(text)
    return text


def capitalise(text: str) -> str:
    """First letter up, as a person types a clue.

    >>> capitalise("a secret"), capitalise("")
    ('A secret', '')
    """
    return text[:1].upper() + text[1:]
