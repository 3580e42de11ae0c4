"""Shared plumbing below every layer: run folders and metrics (:mod:`pyaz.common.runlog`) and
the generic training plots (:mod:`pyaz.common.plots`). Nothing here imports another part of
pyaz."""
