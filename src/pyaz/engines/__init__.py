"""The engines layer: external engines as subprocesses (:mod:`pyaz.engines.process`, the GTP
client :mod:`pyaz.engines.gtp`, UCI through python-chess), and pyaz as an engine: the search
behind the servers (:mod:`pyaz.engines.search`) and the GTP and UCI servers
(:mod:`pyaz.engines.gtp_server`, :mod:`pyaz.engines.uci_server`)."""
