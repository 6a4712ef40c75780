"""The puzzles over HTTP: a position to solve, then the answer only once it is tried."""
