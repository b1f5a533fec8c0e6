"""Caption templates: one sentence per language, with the roles' words in the right form.

A template names a role in braces and may ask for a form:

* English: ``{a}`` "a fox", ``{a.the}`` "the fox", ``{a.bare}`` "fox", ``{a.pl}`` "foxes";
* Russian: ``{a}`` nominative, ``{a.acc}``, ``{a.gen}``, ``{a.dat}``, ``{a.ins}``,
  ``{a.loc}``, ``{a.npl}`` (nominative plural); ``{a.loc:в}`` puts a preposition in
  front and makes it "во", "со", "ко", "об" where Russian says so;
* Italian: ``{a}`` with its definite article, ``{a.un}`` with the indefinite one,
  ``{a.bare}``, ``{a.pl}``, ``{a.diun}`` ("di una volpe"), and ``{a.di}``, ``{a.a}``,
  ``{a.da}``, ``{a.in}``, ``{a.su}`` with the preposition joined to the article ("della
  volpe", "nell'albero"). A thing there is only one of (English "the moon") keeps its
  definite article where others take the indefinite one: "la luna", "della luna".

``{a?m|f|n|p}`` picks by the role's grammatical gender (Russian: masculine, feminine,
neuter, plural-only; Italian: masculine, feminine) for the words that agree with it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tools.deckgen.model import DeckBuildError
from tools.deckgen.second.library import Words

_SLOT = re.compile(r"\{([a-z0-9]+)(?:\.([a-z]+))?(?::([а-я]+))?(?:\?([^}]*))?\}")
_RU_CASES = {"": 0, "nom": 0, "acc": 1, "gen": 2, "dat": 3, "ins": 4, "loc": 5, "npl": 6}
_IT_PREP = {
    "di": ("del", "dello", "della", "dell'"),
    "a": ("al", "allo", "alla", "all'"),
    "da": ("dal", "dallo", "dalla", "dall'"),
    "in": ("nel", "nello", "nella", "nell'"),
    "su": ("sul", "sullo", "sulla", "sull'"),
}
_RU_VOWELS = "аеёиоуыэюя"


def ru_prep(prep: str, word: str) -> str:
    """A Russian preposition in the form it takes before ``word``.

    >>> ru_prep("в", "арбузе"), ru_prep("в", "вазе"), ru_prep("в", "вторник")
    ('в', 'в', 'во')
    >>> ru_prep("с", "собакой")
    'с'
    >>> ru_prep("с", "слоном"), ru_prep("с", "львом"), ru_prep("к", "мне"), ru_prep("о", "ухе")
    ('со', 'со', 'ко', 'об')
    """
    w = word.lower()
    second = w[1:2]
    cluster = bool(second) and second not in _RU_VOWELS
    if prep == "в" and ((w[:1] in "вф" and cluster) or w.startswith("мн")):
        return "во"
    if prep == "с" and ((w[:1] in "сзшжщ" and cluster) or w.startswith(("льв", "мн"))):
        return "со"
    if prep == "к" and w.startswith(("мн", "вс")):
        return "ко"
    if prep == "о" and w[:1] in "аиоуэ":
        return "об"
    return prep


def it_indefinite(definite: str, gender: str) -> str:
    """The indefinite form of an Italian noun given with its definite article.

    >>> it_indefinite("la volpe", "f"), it_indefinite("l'ape", "f"), it_indefinite("lo squalo", "m")
    ('una volpe', "un'ape", 'uno squalo')
    >>> it_indefinite("l'orso", "m"), it_indefinite("il gatto", "m")
    ('un orso', 'un gatto')
    """
    if definite.startswith("il "):
        return "un " + definite[3:]
    if definite.startswith("lo "):
        return "uno " + definite[3:]
    if definite.startswith("la "):
        return "una " + definite[3:]
    if definite.startswith("l'"):
        return ("un'" if gender == "f" else "un ") + definite[2:]
    raise DeckBuildError(f"Italian noun without article: {definite!r}")


def it_articulated(prep: str, definite: str) -> str:
    """``prep`` joined to the definite article: ``di`` + "la volpe" is "della volpe".

    >>> it_articulated("in", "l'albero"), it_articulated("su", "lo scoglio")
    ("nell'albero", 'sullo scoglio')
    """
    forms = _IT_PREP[prep]
    for art, joined in zip(("il ", "lo ", "la ", "l'"), forms, strict=True):
        if definite.startswith(art):
            return joined + ("" if art == "l'" else " ") + definite[len(art) :]
    raise DeckBuildError(f"Italian noun without article: {definite!r}")


def _bare(text: str, articles: tuple[str, ...]) -> str:
    for a in articles:
        if text.startswith(a):
            return text[len(a) :]
    return text


def form(words: Words, lang: str, name: str, prep: str = "") -> str:
    """One role's words in form ``name`` of ``lang`` (see the module docstring)."""
    if lang == "en":
        bare = _bare(words.en_a, ("a ", "an ", "the "))
        table = {"": words.en_a, "the": "the " + bare, "bare": bare, "pl": words.en_pl}
        if name not in table:
            raise DeckBuildError(f"unknown English form {name!r}")
        return table[name]
    if lang == "ru":
        if name not in _RU_CASES:
            raise DeckBuildError(f"unknown Russian form {name!r}")
        w = words.ru[_RU_CASES[name]]
        return f"{ru_prep(prep, w)} {w}" if prep else w
    if lang == "it":
        if name in _IT_PREP:
            return it_articulated(name, words.it_def)
        unique = words.en_a.startswith("the ")
        table = {
            "": words.it_def,
            "un": words.it_def if unique else it_indefinite(words.it_def, words.it_g),
            "bare": _bare(words.it_def, ("il ", "lo ", "la ", "l'")),
            "pl": words.it_pl,
            "diun": (
                it_articulated("di", words.it_def)
                if unique
                else "di " + it_indefinite(words.it_def, words.it_g)
            ),
        }
        if name not in table:
            raise DeckBuildError(f"unknown Italian form {name!r}")
        return table[name]
    raise DeckBuildError(f"unknown language {lang!r}")


def _gender_pick(words: Words, lang: str, options: str) -> str:
    opts = options.split("|")
    if lang == "ru":
        order = "mfnp"
        g = words.ru_g
    elif lang == "it":
        order = "mf"
        g = words.it_g
    else:
        raise DeckBuildError("English templates need no gender switch")
    i = order.index(g)
    if i >= len(opts):
        raise DeckBuildError(f"gender switch {{?{options}}} has no form for gender {g!r}")
    return opts[i]


def fill(template: str, lang: str, roles: Mapping[str, Words]) -> str:
    """The caption sentence: every slot filled, the first letter capitalised."""

    def one(m: re.Match[str]) -> str:
        role, name, prep, options = m.group(1), m.group(2) or "", m.group(3) or "", m.group(4)
        if role not in roles:
            raise DeckBuildError(f"caption names role {role!r} the scene does not have")
        if options is not None:
            return _gender_pick(roles[role], lang, options)
        return form(roles[role], lang, name, prep)

    text = _SLOT.sub(one, template)
    if "{" in text or "}" in text:
        raise DeckBuildError(f"caption template left a slot open: {text!r}")
    return text[:1].upper() + text[1:]
