"""The puzzles over HTTP: a position to solve, then the answer only once it is tried; and the
logged-in players' puzzle ratings, each puzzle an opponent of fixed rating."""
