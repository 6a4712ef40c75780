"""Learning an evaluation by self-play (issue 15): data on the round state, training, the pipeline.

- :mod:`.selfplay`: matches played on :class:`~scopa.round.Round`, every decision written
  down as a record of what the seat to move knows (:mod:`scopa.learning.features`) with
  what followed: the round's points by category and the match result. Generation 0 is
  played by the playout policy, later ones by the evaluation learned before
  (:class:`.selfplay.LearnedPolicy`).
- :mod:`.train`: a small network fitted to those outcomes with PyTorch (the ``train``
  extra), saved as numpy arrays that :mod:`scopa.learning.evaluation` runs without torch.
- :mod:`.distil`: the master's search values as targets (expert iteration, one step):
  the master's self-play, every decision labelled with its search's value, for a net
  that predicts that value from the seat's record and the match standing.
- :mod:`.levels`: the learned level with a weights file of one's choosing, for tournaments.
- ``python -m scopa.learning``: the whole pipeline from a seed, generation after
  generation, with each one's tournament figures (see ``docs/learned.md``).

Playing never imports this package.
"""
