"""Pixels to observations: cards, tiles, meeples. Nothing about rules lives here."""
