"""The second edition of the default deck ("Reverie II"): scenes that tell something.

The first edition (``tools.deckgen`` proper) put one nameable emoji in one of 13
templates; this edition builds every card from a *scene*: an actor doing something to
something, an impossible scale, two things in tension, something half hidden, a door
into another world or a reflection that lies. Each scene is a painter plus the roles it
needs (with the elements that may fill them) and a caption sentence per language.

Modules, in the order a card is made:

* ``library``: the element catalog (source and grammar of every element) and the
  extraction of its art from the npm packages and Debian's ``openclipart-svg``;
* ``grammar``: filling a caption template with the right case, article and agreement;
* ``kit``: drawing helpers the scenes share (rooms, doors, mirrors, ropes, water);
* ``scenes_*``: the scenes, grouped by what they tell;
* ``finish``: the painterly finish (brush, paper grain, light);
* ``plan``: which cards the deck holds (roles, settings) for a seed;
* ``build``: rendering, the deck's files, writing the folder.

Everything after extraction is pure string work seeded by strings, so the same seed
always writes byte-identical files.
"""
