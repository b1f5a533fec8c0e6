"""Reproducible generator of the default picture deck (``python -m tools.deckgen``).

The deck is built in two steps. :func:`tools.deckgen.npm_source.extract_library` copies
the SVG bodies and the ru/en/it labels of the catalogued emoji out of the unpacked npm
packages into a small element library committed next to the deck.
:func:`tools.deckgen.build.build_deck` then turns that library, the hand-written curated
recipes and a seed into card SVGs, a manifest and the hidden metadata. Everything after
extraction is pure string work driven by ``random.Random`` seeded with strings, so the
same seed always gives byte-identical files and tests can rebuild any card without npm.

The server never imports this package: it only reads the files the generator wrote.

Modules, in the order a card is made:

* ``model``: the data passed between the steps (elements, settings, recipes, cards);
* ``npm_source``: the element library out of the npm packages;
* ``elements``: the element library and the SVG toolkit (:class:`Canvas`, gradients,
  filters);
* ``scenery``: the settings (sky, ground, light, weather) and the procedural props;
* ``layouts``: the layout painters and the roles each one needs;
* ``recipes``: curated recipes and the ones a seed invents;
* ``captions``: the caption grammar (en, ru, it);
* ``build``: rendering, the deck's files, writing the folder;
* ``cli``: the ``build`` and ``sheet`` commands.
"""
