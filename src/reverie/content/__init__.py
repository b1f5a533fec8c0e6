"""Content: decks, card art, word lists and board layouts (data and loaders)."""
