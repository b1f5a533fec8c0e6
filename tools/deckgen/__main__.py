"""``python -m tools.deckgen``: the deck generator's command line."""

from tools.deckgen.cli import app

if __name__ == "__main__":
    app()
