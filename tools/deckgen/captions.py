"""Caption grammar: a card's caption in en, ru and it from its layout's templates.

English templates get articles and plurals made here; Russian and Italian templates are
written so the bare nominative labels fit ("{S}. В небе — {giant}").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tools.deckgen.layouts import LAYOUTS
from tools.deckgen.model import LANGS, Art, Recipe
from tools.deckgen.scenery import PROPS, SETTINGS


def article(word: str) -> str:
    """English indefinite article for a label."""
    return "an" if word[:1].lower() in "aeiou" else "a"


_MASS_NOUNS = frozenset(
    {"bubbles", "cherries", "grapes", "pancakes", "logs", "shoes", "dolls", "swords"}
    | {"keys", "bread", "cheese", "ice cream"}
)


def a(word: str) -> str:
    """``word`` with its indefinite article ("a whale", "an owl", "some grapes").

    >>> a("whale"), a("owl"), a("grapes")
    ('a whale', 'an owl', 'some grapes')
    """
    last = word.split()[-1]
    if word in _MASS_NOUNS or last in _MASS_NOUNS:
        return f"some {word}"
    return f"{article(word)} {word}"


_PLURAL_EXCEPTIONS = {
    "mouse": "mice",
    "sheep": "sheep",
    "fish": "fish",
    "jellyfish": "jellyfish",
    "blowfish": "blowfish",
    "tropical fish": "tropical fish",
    "goose": "geese",
    "leaf": "leaves",
    "maple leaf": "maple leaves",
    "fallen leaf": "fallen leaves",
    "bubbles": "bubbles",
    "cherries": "cherries",
    "grapes": "grapes",
    "pancakes": "pancakes",
    "ballet shoes": "pairs of ballet shoes",
    "logs": "logs",
    "bow and arrow": "bows and arrows",
    "crossed swords": "crossed swords",
    "nesting dolls": "nesting dolls",
    "stack of books": "stacks of books",
    "ball of yarn": "balls of yarn",
    "spool of thread": "spools of thread",
    "piano keys": "pianos",
    "house with a garden": "houses with gardens",
    "jack-o'-lantern": "jack-o'-lanterns",
}


def plural(word: str) -> str:
    """Rough English plural, good enough for the catalogue's nouns.

    >>> [plural(w) for w in ("fox", "butterfly", "mouse", "ball of yarn")]
    ['foxes', 'butterflies', 'mice', 'balls of yarn']
    """
    if word in _PLURAL_EXCEPTIONS:
        return _PLURAL_EXCEPTIONS[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return word[:-1] + "ies"
    if word.endswith("f"):
        return word[:-1] + "ves"
    return word + "s"


def cap(text: str) -> str:
    """Upper-case the first letter only (labels may hold proper nouns)."""
    return text[:1].upper() + text[1:]


def caption(r: Recipe, lib: Mapping[str, Art], props: Sequence[str]) -> dict[str, str]:
    """Caption a recipe in ru, en and it from its element labels and setting."""
    if r.caption is not None:
        return {lang: r.caption[lang] for lang in LANGS}
    lay = LAYOUTS[r.layout]
    st = SETTINGS[r.setting]
    out: dict[str, str] = {}
    prop = "fishbowl" if "fishbowl" in props else "glass-globe"
    for lang in LANGS:
        vals: dict[str, str] = {"at": st.words["en"], "S": st.words[lang]}
        vals["prop"] = PROPS[prop][lang]
        vals["Prop"] = cap(PROPS[prop][lang])
        for role, key in r.roles:
            word = lib[key].label[lang]
            vals[role] = word
            vals[role.capitalize()] = cap(word)
            if lang == "en":
                vals[f"a_{role}"] = a(word)
                vals[f"A_{role}"] = cap(a(word))
                vals[f"{role}_pl"] = plural(word)
        template = getattr(lay, lang)
        # Optional roles that were not filled leave no trace in the template.
        for role in lay.roles:
            if role not in vals:
                template = re.sub(r"[;,]? [^;,.]*\{[a-zA-Z_]*" + role + r"[a-z_]*\}", "", template)
        text = template.format(**vals)
        text = re.sub(r"\s+", " ", text).replace(" ,", ",").strip()
        out[lang] = cap(text)
    return out
