"""The AlphaZero / AlphaGo Zero training loop over any registered board game (``pyaz-selfplay``):

- :mod:`~pyaz.methods.alphazero.config`: :class:`TrainConfig`, the run's settings and their checks;
- :mod:`~pyaz.methods.alphazero.loop`: :class:`TrainingLoop` (self-play, training, gating,
  evaluation, checkpoints);
- :mod:`~pyaz.methods.alphazero.selfplay_engine` and
  :mod:`~pyaz.methods.alphazero.selfplay_parts`: the pluggable self-play engine (embedded or Ray);
- :mod:`~pyaz.methods.alphazero.targets`, :mod:`~pyaz.methods.alphazero.schedules`,
  :mod:`~pyaz.methods.alphazero.sparring`, :mod:`~pyaz.methods.alphazero.matches`: the value
  targets, the schedules, sparring games and the gating and evaluation matches;
- :mod:`~pyaz.methods.alphazero.preset_files` and ``presets/``: the shipped TOML presets;
  :mod:`~pyaz.methods.alphazero.saved_settings`: reading a run folder's settings back.
"""
