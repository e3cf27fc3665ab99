"""Superheld Solo – 't Duistere Woud with Spookkrijgers, and the 2-hero co-op: the referee engine.

The rules live in small modules that work on a `State` (map, heroes, decks, battle); `rules.apply`
plays one move on a copy and raises `IllegalMove` for a forbidden one, so `game.Superheld` never
touches a state that a bad move could corrupt.
"""
