"""Lay out an importable ``tui_gateway.contracts`` package from the stored upstream sources.

The stored sources are one file per upstream version, not a checkout: ``__init__.py`` imports an
``i18n`` module and ``connectors_operation.py`` imports ``hermes_cli.plugin_install_phase``, and
neither is stored. The tree built here is the stored files unchanged, the sessions module chosen by
the caller, and the two stand-ins below; nothing of it is written into the repository.
"""

from __future__ import annotations

import ast
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from seed_capture import Declarations, declarations_of, rebuild_module

PYDANTIC_VERSION = "2.13.4"
SEED_FILE = "001_1bc7897246ef6c1c.txt"
CONTRACTS = Path("tui_gateway") / "contracts"
GENERATOR = Path("scripts") / "gen_gateway_contracts.py"

# ``__init__.py`` imports ``i18n`` but no stored module imports a name from it, so the stand-in
# declares nothing: any method it registered would be invented.
I18N_STAND_IN = '''"""Stand-in for the unstored ``tui_gateway/contracts/i18n.py``.

``__init__.py`` imports this module for its registrations; no stored module imports a name from
it, so the stand-in registers nothing rather than inventing contracts.
"""
'''

# ``connectors_operation.py`` uses ``InstallPhase`` once, as ``phase: InstallPhase | None = None`` on
# ``ConnectionOperationTarget`` (a catalog install row): a string-valued type whose members no stored
# file names. A plain ``str`` accepts every member the real type may have and invents none.
INSTALL_PHASE_STAND_IN = '''"""Stand-in for the unstored ``hermes_cli.plugin_install_phase``.

The stored contracts use ``InstallPhase`` only as ``ConnectionOperationTarget.phase: InstallPhase |
None``; its members appear nowhere in the stored sources, so it is typed as an open string.
"""

InstallPhase = str
'''

STAND_INS = (
    "tui_gateway/contracts/i18n.py: empty module (imported by __init__.py; no stored module imports a "
    "name from it, so it registers nothing)",
    "hermes_cli.plugin_install_phase.InstallPhase = str (its one use is ConnectionOperationTarget.phase: "
    "InstallPhase | None; no stored file names its members, so it renders as an open string)",
)


@dataclass(frozen=True)
class Variant:
    """One committed document: which sessions.py it is built with and how it is labelled."""

    sessions: str
    out: str
    version: str
    label: str


VARIANTS = {
    "seed": Variant(
        "seed",
        "profiles/hermes/contracts/gateway.openrpc.json",
        "2",
        "sessions.py rebuilt from the seed 001 capture: the current module, with session.create cwd_explicit, "
        "session.branch_stored and session.branch_whole",
    ),
    "stored": Variant(
        "stored",
        "profiles/hermes/contracts/gateway.pre-cwd-explicit.openrpc.json",
        "1",
        "sessions.py as stored: the older module, without cwd_explicit, session.branch_stored and "
        "session.branch_whole",
    ),
}


class SetupError(RuntimeError):
    """The sources, the seed capture or the Python environment cannot produce the documents."""


@dataclass(frozen=True)
class Sessions:
    """The sessions.py module the tree uses and the method names its text declares."""

    variant: str  # "seed" or "stored"
    source: str
    declared: Declarations


def check_python() -> None:
    """Python 3.11+ (``enum.StrEnum``) with exactly the pydantic the documents were generated with:
    another pydantic renders other JSON Schema and the committed documents would not reproduce."""
    if sys.version_info < (3, 11):
        raise SetupError(f"Python 3.11 or newer is needed (enum.StrEnum); this is {sys.version.split()[0]}")
    try:
        import pydantic
    except ImportError as error:
        raise SetupError(f"pydantic {PYDANTIC_VERSION} is needed and is not importable: {error}") from error
    if pydantic.VERSION != PYDANTIC_VERSION:
        raise SetupError(f"pydantic {PYDANTIC_VERSION} is needed to reproduce the documents; found {pydantic.VERSION}")


def catalog_modules(sources: Path) -> list[str]:
    """The module names ``__init__.py`` imports: the catalog (other stored modules are other versions)."""
    init = sources / CONTRACTS / "__init__.py"
    tree = ast.parse(init.read_text(encoding="utf-8"), filename=str(init))
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
            names.extend(alias.name for alias in node.names)
    return names


def check_sources(sources: Path) -> None:
    """Every file the tree needs is stored, except the two names the stand-ins provide."""
    required = [CONTRACTS / "__init__.py", CONTRACTS / "base.py", CONTRACTS / "registry.py", GENERATOR]
    missing = [str(path) for path in required if not (sources / path).is_file()]
    if not missing:
        missing = [
            str(CONTRACTS / f"{name}.py")
            for name in catalog_modules(sources)
            if name != "i18n" and not (sources / CONTRACTS / f"{name}.py").is_file()
        ]
    if missing:
        raise SetupError(f"{sources} is not the stored Hermes contract sources: missing {', '.join(missing)}")


def load_sessions(variant: str, sources: Path, seeds: Path | None) -> Sessions:
    """The stored sessions.py, or the seed capture rebuilt into an importable module."""
    if variant == "stored":
        text = (sources / CONTRACTS / "sessions.py").read_text(encoding="utf-8")
        return Sessions(variant, text, declarations_of(text))
    if seeds is None or not (seeds / SEED_FILE).is_file():
        raise SetupError(f"the seed capture {SEED_FILE} is not in {seeds}")
    try:
        text, declared = rebuild_module((seeds / SEED_FILE).read_text(encoding="utf-8"), filename="sessions.py")
    except ValueError as error:
        raise SetupError(str(error)) from error
    return Sessions(variant, text, declared)


def build_tree(root: Path, sources: Path, sessions: Sessions) -> None:
    """Write the package tree under ``root`` (an empty temporary directory)."""
    contracts = root / CONTRACTS
    contracts.mkdir(parents=True)
    (root / "tui_gateway" / "__init__.py").write_text("", encoding="utf-8")
    for module in sorted((sources / CONTRACTS).glob("*.py")):
        if module.name != "sessions.py":
            shutil.copyfile(module, contracts / module.name)
    (contracts / "sessions.py").write_text(sessions.source, encoding="utf-8")
    if not (contracts / "i18n.py").exists():
        (contracts / "i18n.py").write_text(I18N_STAND_IN, encoding="utf-8")
    stand_in = root / "hermes_cli"
    stand_in.mkdir()
    (stand_in / "__init__.py").write_text("", encoding="utf-8")
    (stand_in / "plugin_install_phase.py").write_text(INSTALL_PHASE_STAND_IN, encoding="utf-8")
    (root / GENERATOR).parent.mkdir(parents=True)
    shutil.copyfile(sources / GENERATOR, root / GENERATOR)
