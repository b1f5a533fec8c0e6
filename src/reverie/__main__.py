"""``python -m reverie`` runs the command line."""

from reverie.cli import main

# Guarded: a child process started with "spawn" (the bots read a deck in one) imports
# this module again under another name, and must not start a second command.
if __name__ == "__main__":
    main()
