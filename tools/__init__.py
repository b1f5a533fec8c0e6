"""Build tools that run from a checkout and never ship with the ``reverie`` package."""
