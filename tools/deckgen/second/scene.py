"""What a scene is (painter, roles, settings, caption) and the element groups roles use."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tools.deckgen.elements import Canvas
from tools.deckgen.model import Recipe

Painter = Callable[[Canvas, Recipe], None]


@dataclass(frozen=True)
class Scene:
    """A scene template: one story shape, many cards.

    ``roles`` maps each role to the elements that may play it; ``caption`` holds one
    template per language (see :mod:`tools.deckgen.second.grammar`); ``kind`` says
    what the scene tells (deed, scale, tension, hidden, door, mirror).
    """

    name: str
    kind: str
    roles: Mapping[str, tuple[str, ...]]
    settings: tuple[str, ...]
    caption: Mapping[str, str]
    paint: Painter
    count: int = 6


# Element groups (keys of recipes/catalog.json). Small and mid-sized animals and
# characters that can act; the big ones; things one can hold; and so on.
ACTORS = (
    "fox", "cat", "rabbit", "bear", "mouse", "hedgehog", "penguin", "frog", "owl", "raccoon",
    "badger", "otter", "sloth", "dog", "monkey", "koala", "pig", "duck", "chipmunk", "beaver",
    "hamster", "turtle", "snail", "llama", "ewe", "snowman", "robot", "ghost", "astronaut",
    "mage", "fairy",
)  # fmt: skip
SMALL = ("mouse", "hedgehog", "frog", "snail", "chick", "ladybug", "hamster", "chipmunk", "duck")
BIG = (
    "whale", "elephant", "hippo", "giraffe", "t-rex", "sauropod", "dragon", "octopus", "mammoth",
    "polar-bear", "camel",
)  # fmt: skip
PREDATORS = ("wolf", "lion", "tiger", "crocodile", "dragon", "bear", "fox", "cat", "owl", "shark")
FLYERS = (
    "bird", "dove", "butterfly", "bat", "eagle", "swan", "parrot", "bee", "flamingo", "phoenix",
    "owl",
)  # fmt: skip
SEA = (
    "whale", "fish", "tropical-fish", "octopus", "jellyfish", "shark", "dolphin", "turtle",
    "blowfish", "crab", "squid", "seal", "lobster",
)  # fmt: skip
THINGS = (
    "key", "clock", "mantel-clock", "light-bulb", "teapot", "crown", "umbrella", "book", "violin",
    "envelope", "bell", "chess-pawn", "compass", "hourglass", "anchor", "paper-lantern",
    "crystal-ball", "ring", "gem", "die", "top-hat", "teddy-bear", "rocket", "candle",
    "telescope", "globe", "egg", "trophy", "puzzle", "star", "boot", "shell",
)  # fmt: skip
BUILDINGS = (
    "house", "castle", "church", "hut", "pagoda", "temple", "tent", "o-igloo", "o-pink-house",
    "o-lighthouse", "ferris-wheel",
)  # fmt: skip
PLANTS = (
    "tree", "fir", "palm", "cactus", "sunflower", "tulip", "rose", "mushroom", "o-toadstool",
    "o-rooted-tree", "clover",
)  # fmt: skip
FOOD = (
    "strawberry", "apple", "pear", "lemon", "watermelon", "cherries", "cookie", "doughnut",
    "cheese", "croissant", "pie", "cake", "ice-cream", "honey", "banana", "peach", "pineapple",
)  # fmt: skip
INSTRUMENTS = (
    "violin", "trumpet", "guitar", "saxophone", "accordion", "drum", "banjo", "o-harp",
    "o-cello",
)  # fmt: skip
SHADOWS = (
    "s-werewolf", "s-giant", "s-witch", "s-knight", "s-wyvern", "s-deer", "s-elephant",
    "s-mammoth", "s-gorilla", "s-raven", "s-pegasus", "s-diplodocus", "s-polar-bear", "s-cat",
    "s-fox", "s-rabbit",
)  # fmt: skip
DEEP = ("s-sperm-whale", "s-squid", "s-serpent", "s-nessie", "s-mermaid")
