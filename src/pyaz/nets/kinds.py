"""Which package builds each kind of model file: :func:`~pyaz.nets.loading.load_model`
(``pyaz.load_model``, the one loader) reads a file of any kind and hands it to its kind's
builder, named here.

The method kinds are built by their own packages, which sit above this layer: :data:`LOADERS`
names each kind's builder (``module:function``, taking a :class:`~pyaz.nets.files.ModelFile`
and returning a :class:`~pyaz.nets.loading.LoadedModel`), imported when first needed, as
:data:`pyaz.eval.presets.METHOD_PRESETS` does.
"""

from __future__ import annotations

__all__ = ["LOADERS", "RUN_MODEL_FILES"]

LOADERS: dict[str, str] = {
    "az": "pyaz.nets.loading:model_from_file",
    "alphagomoku-pair": "pyaz.methods.alphagomoku.pair:pair_from_file",
    "zetago-policy": "pyaz.methods.reinforce.net:network_from_file",
    "curling": "pyaz.methods.kr_dl_uct.loop:curling_net_from_file",
}
"""The builder of each kind (``module:function``), imported when first used."""

RUN_MODEL_FILES = ("pair.pt", "net.pt")
"""The model files of the method run folders (AlphaGomoku, ZetaGo), looked for before the
AlphaZero and curling ``checkpoint.pt`` (a ZetaGo run's ``checkpoint.pt`` holds no model)."""
