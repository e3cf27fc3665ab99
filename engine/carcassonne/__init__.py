"""Carcassonne solo (Hans im Glück 2020) on the base game's 72 tiles."""
