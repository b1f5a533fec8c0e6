"""Reverie: picture-association party games and a team drawing game, online with friends."""

__version__ = "0.1.0"
