"""Bot plugins, and the catalog's names under their first import path.

:func:`load_plugin` imports a module (or a ``.py`` file) that registers bots or games;
tournaments reload plugin files in their worker processes. Everything else here is the
catalog (:mod:`rummykit.catalog`), re-exported for code that imports it from here:

>>> from rummykit.sim.registry import get_variant
>>> get_variant("rami51").name
'rami'
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Mapping
from pathlib import Path

from rummykit.catalog import *  # noqa: F403
from rummykit.errors import BotError as BotError
from rummykit.errors import UnknownBotError as UnknownBotError
from rummykit.errors import UnknownVariantError as UnknownVariantError

# -- plugins -------------------------------------------------------------------------------------

_PLUGIN_FILES: dict[str, str] = {}
"""Module name -> file path of plugins loaded from ``.py`` files (workers reload them)."""


def load_plugin(target: str) -> types.ModuleType:
    """Import a module that registers bots: a dotted module name or a ``.py`` file path.

    A file is imported once under the name ``rummykit_plugin_<stem>``; loading the same
    file again returns the same module.
    """
    if not (target.endswith(".py") or "/" in target or "\\" in target):
        return importlib.import_module(target)
    path = Path(target).expanduser().resolve()
    if not path.is_file():
        raise FileNotFoundError(f"no bot plugin file {target!r}")
    for name, known in _PLUGIN_FILES.items():
        if known == str(path) and name in sys.modules:
            return sys.modules[name]
    name = f"rummykit_plugin_{path.stem}"
    if name in sys.modules and _PLUGIN_FILES.get(name) not in (None, str(path)):
        name = f"{name}_{len(_PLUGIN_FILES)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {target!r} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    _PLUGIN_FILES[name] = str(path)
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        del _PLUGIN_FILES[name]
        raise
    return module


def loaded_plugin_files() -> dict[str, str]:
    """Plugins loaded from files: module name -> path."""
    return dict(_PLUGIN_FILES)


def reload_plugin_files(files: Mapping[str, str]) -> None:
    """Load plugin files under the given module names (in a fresh worker process)."""
    for name, path in files.items():
        if name in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot import bot plugin {path!r}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        _PLUGIN_FILES[name] = path
        spec.loader.exec_module(module)
