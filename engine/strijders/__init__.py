"""Strijders card battle: the players' own catalog, the effect steps, the classic and advanced rounds."""
