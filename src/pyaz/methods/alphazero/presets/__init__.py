"""The seeds' training presets (TOML), shipped with the package: ``pyaz-selfplay --preset NAME``
takes one by name (or any TOML file by path); :func:`pyaz.methods.alphazero.presets.load_preset`
reads one."""
