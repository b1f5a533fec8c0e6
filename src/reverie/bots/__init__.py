"""Bots: players that see exactly what a person in their seat sees (the seat's view)."""
