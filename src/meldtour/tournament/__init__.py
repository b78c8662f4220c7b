"""The tournament engine: divisions, stages, seating, score sheets, standings, ranking."""
