"""Generate the full Hermes gateway OpenRPC documents from the stored upstream Pydantic contracts.

    python3 scripts/hermes/gen_full_contract.py --all            write both committed documents
    python3 scripts/hermes/gen_full_contract.py --all --check    exit 1 naming each stale document
    python3 scripts/hermes/gen_full_contract.py [--sessions seed|stored] [--out FILE] [--check]
    python3 scripts/hermes/gen_full_contract.py --names [--sessions seed|stored]
    common: [--sources DIR] [--seeds DIR]

Each document is built in a temporary package tree (``contract_tree.py``): the stored
``tui_gateway/contracts`` modules, stand-ins for the two unstored names, and ``sessions.py`` either
rebuilt from the seed capture (``seed``, the current module) or as stored (``stored``, the older
one without ``cwd_explicit``). A separate interpreter imports the tree with pydantic and renders it
with the stored upstream generator (``render_in_tree.py``). Exit codes: 0 written/current,
1 stale (``--check``), 2 the sources, seed or Python environment cannot produce the documents.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # the helpers imported next live in the repository: no __pycache__ there

from contract_tree import (  # noqa: E402
    VARIANTS,
    SetupError,
    Variant,
    build_tree,
    check_python,
    check_sources,
    load_sessions,
)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
WORKER = HERE / "render_in_tree.py"
REGENERATE = "python3 scripts/hermes/gen_full_contract.py --all"


def _shared_default(name: str) -> Path:
    """``<repo>/../shared/<name>``, else ``/work/shared/<name>`` (the two layouts the project runs in)."""
    beside = REPO.parent / "shared" / name
    return beside if beside.is_dir() else Path("/work/shared") / name


def _worker(tree: Path, mode: str, variant: Variant, registrations: list[list[str]]) -> str:
    """Run the renderer on ``tree`` in a fresh interpreter and return its stdout."""
    completed = subprocess.run(
        [sys.executable, str(WORKER), str(tree), mode, variant.sessions, json.dumps(registrations)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        check=False,
    )
    if completed.returncode != 0:
        raise SetupError(f"importing the {variant.sessions} contract tree failed:\n{completed.stderr.strip()}")
    return completed.stdout


def produce(variant: Variant, mode: str, sources: Path, seeds: Path) -> str:
    """The document (``mode`` ``render``) or the registry's name sets (``names``) for ``variant``."""
    sessions = load_sessions(variant.sessions, sources, seeds)
    with tempfile.TemporaryDirectory(prefix="hermes-contracts-") as temp:
        tree = Path(temp) / "tree"
        build_tree(tree, sources, sessions)
        return _worker(tree, mode, variant, [list(entry) for entry in sessions.declared.registrations])


def _display(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def write_or_check(text: str, path: Path, check: bool, regenerate: str) -> bool:
    """Write ``text`` to ``path`` (or compare it, with ``check``); False when the file is stale."""
    current = path.read_bytes() if path.is_file() else None
    if current == text.encode("utf-8"):
        print(f"{_display(path)} is current" if check else f"{_display(path)} unchanged")
        return True
    if check:
        print(f"stale: {_display(path)} is not what the sources render; run `{regenerate}`", file=sys.stderr)
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    print(f"wrote {_display(path)}")
    return True


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", type=Path, default=None, help="the stored hermes-contracts folder")
    parser.add_argument("--seeds", type=Path, default=None, help="the folder holding the seed captures")
    parser.add_argument("--sessions", choices=sorted(VARIANTS), default="seed", help="which sessions.py (default seed)")
    parser.add_argument("--out", type=Path, default=None, help="output file (default: the committed document)")
    parser.add_argument("--check", action="store_true", help="exit 1 when the file differs from the rendering")
    parser.add_argument("--all", action="store_true", help="both committed documents (seed and stored)")
    parser.add_argument("--names", action="store_true", help="print the registry's method/request/event names as JSON")
    args = parser.parse_args(argv)
    if args.all and (args.out is not None or args.names):
        parser.error("--all writes the committed documents; it takes neither --out nor --names")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    sources = (args.sources or _shared_default("hermes-contracts")).resolve()
    seeds = (args.seeds or _shared_default("seeds")).resolve()
    try:
        check_python()
        if not sources.is_dir():
            raise SetupError(f"the stored Hermes contract sources are not at {sources}; pass --sources DIR")
        check_sources(sources)
        if args.names:
            sys.stdout.write(produce(VARIANTS[args.sessions], "names", sources, seeds))
            return 0
        variants = list(VARIANTS.values()) if args.all else [VARIANTS[args.sessions]]
        fresh = True
        for variant in variants:
            text = produce(variant, "render", sources, seeds)
            if args.out is None:
                out, regenerate = REPO / variant.out, REGENERATE
            else:
                out = args.out.resolve()
                regenerate = f"python3 scripts/hermes/gen_full_contract.py --sessions {variant.sessions} --out {out}"
            fresh = write_or_check(text, out, args.check, regenerate) and fresh
        return 0 if fresh else 1
    except SetupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
