"""The seeds' training presets (TOML), shipped with the package: ``pyaz-selfplay --preset NAME``
takes one by name (or any TOML file by path); :func:`pyaz.train.presets.load_preset` reads one."""
