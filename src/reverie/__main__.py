"""``python -m reverie`` runs the command line."""

from reverie.cli import main

main()
