"""Rebuild a Hermes contract module from a web-page capture that lost its indentation.

The seed captures (``seeds/*.txt``) carry a page header, then every source line followed by two
``|`` lines (a blank source line keeps only its ``|`` pair), with all leading whitespace and every
run of inner spaces collapsed. Python needs the indentation back before the module can be imported,
so :func:`reindent` re-derives it from the layout conventions the upstream contract modules follow:

- two blank lines end every block (PEP 8 spacing between top-level definitions);
- one blank line ends the nested blocks of a class body (``def`` bodies, ``if``/``for``), so the
  next statement is back in the class body;
- ``class``, ``from``/``import``, ``__all__`` and the registry calls (``method(``, ``event(``,
  ``server_request(``) are top-level statements; a ``def``/decorator is a class member while a
  class is open;
- a line ending in ``:`` opens a block; ``return``/``raise``/``continue``/``break`` close one;
- inside brackets a continuation line aligns with the column after the open bracket, or hangs by
  four spaces when the bracket ends its line; a line that starts with the closer of a hanging
  bracket returns to the opener's indentation; docstring continuation lines take the indentation
  of the line that opened the string (``inspect.cleandoc`` removes it again, as pydantic does).

:func:`verify_rebuilt` then checks the result statically (it compiles; the top-level classes and
registry calls are exactly those of the capture, so no class was swallowed by another); the worker
checks at import time that the module registers exactly the methods the capture declares.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

_TOP_LEVEL = re.compile(r"^(class\s|from\s|import\s|__all__\b|method\(|event\(|server_request\()")
_MEMBER = re.compile(r"^(def\s|async\s+def\s|@)")
_CONTINUES = re.compile(r"^(elif\b|else\b|except\b|finally\b)")
_BLOCK_END = re.compile(r"^(return|raise|continue|break)\b")
_REGISTRY_CALL = re.compile(r'^(method|event|server_request)\(\s*"([^"]+)"', re.MULTILINE)
_CLASS = re.compile(r"^class\s+(\w+)", re.MULTILINE)
_INDENT = "    "
_CLOSERS = ")]}"


def decode_capture(raw: str) -> str:
    """The source text of a capture (plain source passes through unchanged).

    Same reading as ``decodeSeedSource`` in ``scripts/hermesModels/parsePydanticModule.ts``: the
    source starts at the first line opening a docstring, an import or a class; every source line is
    followed by a ``|`` pair, so a pair without a preceding line is a blank source line."""
    lines = raw.split("\n")
    start = next(
        (index for index, line in enumerate(lines) if line.startswith(('"""', "from ", "class "))),
        0,
    )
    body = lines[start:]
    if "|" not in body:
        return "\n".join(body)
    out: list[str] = []
    current: str | None = None
    pipes = 0
    for line in body:
        if line != "|":
            if current is not None:
                out.append(current)
            current = line
            pipes = 0
            continue
        pipes += 1
        if pipes % 2 == 0:
            out.append(current if current is not None else "")
            current = None
    if current is not None:
        out.append(current)
    return "\n".join(out).rstrip("\n") + "\n"


@dataclass
class _Bracket:
    char: str
    column: int  # where continuation lines align
    opener_indent: str  # indentation of the line that opened it (for a closing line)
    hanging: bool


@dataclass
class _Scanner:
    """Tracks what is still open at the end of each physical line: brackets and triple strings."""

    brackets: list[_Bracket] = field(default_factory=list)
    triple: str | None = None  # the open triple quote, if a string spans lines
    triple_indent: str = ""
    backslash: bool = False
    statement_indent: str = ""  # indentation of the logical line's first physical line
    concat_column: int | None = None  # start of the string literal that ended the last line

    def scan(self, text: str, indent: str) -> None:
        """Advance over one physical line that is written at ``indent``."""
        self.backslash = False
        self.concat_column = None
        index = 0
        while index < len(text):
            if self.triple is not None:
                end = _find_string_end(text, index, self.triple)
                if end == -1:
                    return
                self.triple = None
                index = end
                continue
            char = text[index]
            if char == "#":
                return
            if char in "\"'":
                quote = text[index : index + 3] if text[index : index + 3] in ('"""', "'''") else char
                raw = _is_raw(text, index)
                end = _find_string_end(text, index + len(quote), quote, raw)
                if end == -1:
                    if len(quote) == 3:
                        self.triple = quote
                        self.triple_indent = indent
                    return  # an unterminated single-quoted string: not valid Python anyway
                if _code_part(text[end:]) == "":
                    # The line ends with this string: a next line starting with a string continues
                    # the implicit concatenation and aligns with it.
                    self.concat_column = len(indent) + index - len(_string_prefix(text, index))
                index = end
                continue
            if char in "([{":
                rest = text[index + 1 :].split("#", 1)[0].strip()
                hanging = rest == ""
                opener = self.brackets[-1].opener_indent if self.brackets else indent
                column = len(opener) + len(_INDENT) if hanging else len(indent) + index + 1
                self.brackets.append(_Bracket(char, column, opener, hanging))
            elif char in _CLOSERS and self.brackets:
                self.brackets.pop()
            index += 1
        self.backslash = text.endswith("\\")

    @property
    def open(self) -> bool:
        return bool(self.brackets) or self.triple is not None or self.backslash


def _string_prefix(text: str, quote_at: int) -> str:
    """The literal's prefix letters (``r``, ``f``, ``rb`` ...) just before its opening quote."""
    match = re.search(r"(?<![A-Za-z0-9_])[rRbBfFuU]{1,2}$", text[:quote_at])
    return match.group(0) if match else ""


def _is_raw(text: str, quote_at: int) -> bool:
    return "r" in _string_prefix(text, quote_at).lower()


def _find_string_end(text: str, start: int, quote: str, raw: bool = False) -> int:
    """Index just past the closing ``quote`` at or after ``start``; -1 when the line ends first."""
    index = start
    while index < len(text):
        if text[index] == "\\" and not raw:
            index += 2
            continue
        if text.startswith(quote, index):
            return index + len(quote)
        index += 1
    return -1


def _code_part(line: str) -> str:
    """The line without a trailing comment (a ``#`` inside a string literal is kept)."""
    quote_free = re.sub(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'", lambda m: "x" * len(m.group(0)), line)
    hash_at = quote_free.find("#")
    return (line if hash_at == -1 else line[:hash_at]).rstrip()


def reindent(source: str) -> str:
    """Give a de-indented contract module its block structure back (see the module docstring)."""
    blocks: list[str] = []  # kinds of the open blocks: "class", "def" or "block"
    scanner = _Scanner()
    blank_run = 0
    body_expected = False  # the last statement opened a block: this one is its body
    logical: list[str] = []  # physical lines of the current logical line (stripped)
    out: list[str] = []
    for raw_line in source.split("\n"):
        line = raw_line.strip()
        if scanner.open:
            indent = _continuation(scanner, line)
            out.append(indent + line if line else "")
            scanner.scan(line, indent)
            logical.append(line)
            if not scanner.open:
                body_expected = _after_statement(blocks, " ".join(logical))
            continue
        if not line:
            blank_run += 1
            out.append("")
            _after_blank(blocks, blank_run)
            continue
        blank_run = 0
        if line.startswith("#"):
            out.append(_INDENT * len(blocks) + line)
            continue
        if body_expected:
            pass
        elif _TOP_LEVEL.match(line):
            blocks.clear()
        elif _MEMBER.match(line):
            while blocks and blocks[-1] != "class":
                blocks.pop()
        elif _CONTINUES.match(line) and blocks:
            blocks.pop()
        indent = _INDENT * len(blocks)
        out.append(indent + line)
        scanner.statement_indent = indent
        scanner.scan(line, indent)
        logical = [line]
        body_expected = False
        if not scanner.open:
            body_expected = _after_statement(blocks, line)
    return "\n".join(out).rstrip("\n") + "\n"


def _continuation(scanner: _Scanner, line: str) -> str:
    if scanner.triple is not None:
        return scanner.triple_indent if line else ""
    if scanner.brackets:
        if scanner.concat_column is not None and re.match(r"([rRbBfFuU]{1,2})?[\"']", line):
            return " " * scanner.concat_column
        innermost = scanner.brackets[-1]
        if innermost.hanging and line[:1] in _CLOSERS:
            return innermost.opener_indent
        return " " * innermost.column
    return scanner.statement_indent + _INDENT  # a backslash continuation


def _after_blank(blocks: list[str], blank_run: int) -> None:
    if blank_run >= 2:
        blocks.clear()
        return
    while blocks and blocks[-1] != "class":
        blocks.pop()


def _after_statement(blocks: list[str], statement: str) -> bool:
    """Open or close a block after a complete logical line; True when it opened one."""
    code = _code_part(statement)
    if code.endswith(":") and not code.startswith("@"):
        kind = "class" if code.startswith("class ") else "def" if re.match(r"(async\s+)?def\s", code) else "block"
        blocks.append(kind)
        return True
    if _BLOCK_END.match(code) and blocks and blocks[-1] != "class":
        blocks.pop()
    return False


@dataclass(frozen=True)
class Declarations:
    """What a module declares at top level, read from its text without indentation."""

    classes: tuple[str, ...]
    registrations: tuple[tuple[str, str], ...]  # (registry function, wire name)

    @property
    def methods(self) -> tuple[str, ...]:
        return tuple(name for kind, name in self.registrations if kind == "method")


def declarations_of(flat_source: str) -> Declarations:
    """The classes and ``method``/``event``/``server_request`` registrations a capture declares."""
    text = "\n".join(line.strip() for line in flat_source.split("\n"))
    return Declarations(
        classes=tuple(_CLASS.findall(text)),
        registrations=tuple((kind, name) for kind, name in _REGISTRY_CALL.findall(text)),
    )


def _ast_declarations(module: ast.Module) -> Declarations:
    classes = tuple(node.name for node in module.body if isinstance(node, ast.ClassDef))
    registrations = []
    for node in module.body:
        call = node.value if isinstance(node, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id in {"method", "event", "server_request"}
            and call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        ):
            registrations.append((call.func.id, call.args[0].value))
    return Declarations(classes, tuple(registrations))


class RebuildError(ValueError):
    """The rebuilt module does not compile or does not declare what the capture declares."""


def verify_rebuilt(flat_source: str, rebuilt: str, *, filename: str) -> Declarations:
    """Compile ``rebuilt`` and check its top-level declarations against the capture's text."""
    try:
        module = ast.parse(rebuilt, filename=filename)
    except SyntaxError as error:
        raise RebuildError(f"{filename}: the rebuilt module does not compile: {error}") from error
    expected = declarations_of(flat_source)
    found = _ast_declarations(module)
    if found.classes != expected.classes:
        missing = [name for name in expected.classes if name not in found.classes]
        raise RebuildError(f"{filename}: classes not at top level after the rebuild: {missing}")
    if found.registrations != expected.registrations:
        raise RebuildError(f"{filename}: the rebuilt module's registry calls differ from the capture's")
    return expected


def rebuild_module(raw: str, *, filename: str) -> tuple[str, Declarations]:
    """Decode a capture, re-indent it and verify it; returns the module text and its declarations."""
    flat = decode_capture(raw)
    rebuilt = reindent(flat)
    return rebuilt, verify_rebuilt(flat, rebuilt, filename=filename)
