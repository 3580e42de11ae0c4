"""The training methods, one folder each, side by side (none imports another): each holds its
settings, its loop (a :class:`~pyaz.common.run.TrainingRun`), its network and its players, and
registers its model kind (:data:`pyaz.nets.kinds.LOADERS`) and player presets
(:data:`pyaz.eval.presets.METHOD_PRESETS`).

- :mod:`~pyaz.methods.alphazero`: the AlphaZero / AlphaGo Zero loop (settings, self-play, gating,
  presets) that ``pyaz-selfplay`` runs on every board game;
- :mod:`~pyaz.methods.alphagomoku`: a network per colour, winning value decay and the mentor
  curriculum (seed 004, AlphaGomoku);
- :mod:`~pyaz.methods.reinforce`: policy-gradient self-play against an opponent pool, and the
  transfer of a small board's network to a larger one (seed 003, ZetaGo);
- :mod:`~pyaz.methods.kr_dl_uct`: kernel-regression UCT with a policy-value network in a
  continuous action space, for curling (seed 002).

What every method shares (the trainer, the replay buffer, the curriculum, checkpoints and the
techniques registry) is :mod:`pyaz.train`.
"""
