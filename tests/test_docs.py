"""The README and the documentation: every example runs, every link leads somewhere.

* Every ``>>>`` example in ``README.md``, ``CHANGELOG.md`` and ``docs/**/*.md`` (and the
  packaged rules pages, ``src/rummykit/rules/**/*.md``) runs as a doctest, one namespace
  per file, from the repository root, with ``ELLIPSIS`` and ``NORMALIZE_WHITESPACE``: the
  output a page shows is the output the code gives.
* A fenced Python block is either such an example (``pycon``) or includes a file of
  ``examples/`` (``--8<-- "examples/..."``), which other tests run. Commands that cannot
  run here (a server, a Ray cluster) are ``bash`` or ``console`` blocks.
* A ``console`` block is a session of ``rummykit`` commands (``$ rummykit games``,
  ``$ printf 'hint\\nquit\\n' | rummykit play gin --seed 7``): each runs as
  ``python -m rummykit`` in a fresh process and prints what the page shows. Commands
  that cannot run here are ``bash`` blocks, without output.
* Every ``rummykit.…`` name written in code resolves to a module or an attribute.
* Every relative link of a Markdown file leads to a file that exists, and no file links
  outside the repository (``mkdocs build --strict`` checks the site's links and anchors
  too; this test also covers the README and the changelog, which the site does not
  contain as they stand).
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The specifications' folder beside the project, spelt in two parts so that a search of
# the repository for it finds only real references.
OUTSIDE = "../" + "shared"

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(
    [
        ROOT / "README.md",
        ROOT / "CHANGELOG.md",
        *(ROOT / "docs").rglob("*.md"),
        *(ROOT / "src" / "rummykit" / "rules").rglob("*.md"),
    ]
)
IDS = [str(page.relative_to(ROOT)) for page in PAGES]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

# Pages whose examples need the optional research extra ([rl]).
NEEDS = {"docs/rl.md": ("numpy", "gymnasium", "pettingzoo")}

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<info>[^\n`]*)$", re.M)
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]\n]*\]\(([^)\s]+)\)")
CODE_NAME = re.compile(r"`(rummykit(?:\.[A-Za-z_]\w*)+)")
NOT_NAMES = {"rummykit.db"}  # the server's default SQLite file


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(info string, body) of every fenced code block of a Markdown text."""
    blocks: list[tuple[str, str]] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match is None:
            index += 1
            continue
        fence = match["fence"]
        body: list[str] = []
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index])
            index += 1
        blocks.append((match["info"].strip().lower(), "\n".join(body)))
        index += 1
    return blocks


@pytest.fixture
def isolated_catalog() -> Iterator[None]:
    """Bots and plugins a page registers are forgotten after it (pages may load the
    example plugin, tests may load it again later and expect its bots registered)."""
    import sys

    from rummykit import catalog
    from rummykit.catalog import bots
    from rummykit.sim import registry

    catalog.variants()  # the built-in games and bots, registered before the snapshot
    saved_bots = dict(bots._BOTS)
    saved_plugins = dict(registry._PLUGIN_FILES)
    saved_modules = {name for name in sys.modules if name.startswith("rummykit_plugin_")}
    try:
        yield
    finally:
        bots._BOTS.clear()
        bots._BOTS.update(saved_bots)
        registry._PLUGIN_FILES.clear()
        registry._PLUGIN_FILES.update(saved_plugins)
        for name in [n for n in sys.modules if n.startswith("rummykit_plugin_")]:
            if name not in saved_modules:
                del sys.modules[name]


@pytest.mark.usefixtures("isolated_catalog")
@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = str(page.relative_to(ROOT))
    missing = [m for m in NEEDS.get(name, ()) if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{name} needs {', '.join(missing)} (the [rl] extra)")
    monkeypatch.chdir(ROOT)
    # A closing fence would read as expected output: blank the fence lines (keeping the
    # line numbers of the examples).
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__docs__"}, name, str(page), 0)
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    try:
        runner.run(test, out=report.write)
    finally:
        test.globs.clear()
    assert runner.failures == 0, f"{name}: examples fail\n{report.getvalue()}"


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_python_blocks_are_examples(page: Path) -> None:
    for info, body in fenced_blocks(page.read_text(encoding="utf-8")):
        language = info.split()[0] if info else ""
        if language not in ("python", "py", "pycon", "python3"):
            continue
        include = re.fullmatch(r'\s*--8<-- "(examples/[\w./-]+\.py)"\s*', body)
        if include is not None:
            assert (ROOT / include[1]).is_file(), include[1]
            continue
        assert language == "pycon" and ">>>" in body, (
            f"{page.name}: a Python block that is not a >>> example (write it as a pycon "
            f"doctest with its output, or as a bash/console block):\n{body[:300]}"
        )


RUNNABLE = {"play", "games", "version", "tournament", "rules"}
"""``rummykit`` commands a console block may show: they run offline, in a moment."""


def console_sessions(text: str) -> list[tuple[str, str]]:
    """(command, expected output) of every ``$`` line of every console block."""
    sessions: list[tuple[str, str]] = []
    for info, body in fenced_blocks(text):
        if info.split()[:1] != ["console"]:
            continue
        command: str | None = None
        output: list[str] = []
        for line in [*body.splitlines(), "$ "]:
            if line.startswith("$ "):
                if command is not None:
                    sessions.append((command, "\n".join(output)))
                command, output = line[2:].strip(), []
            elif command is None:
                raise AssertionError(f"a console block starts without a command: {line!r}")
            else:
                output.append(line)
    return sessions


def _run_console(command: str) -> str:
    """The command's output (standard output and error), run as ``python -m rummykit`` in
    a process of its own: what a person sees, whatever this process has registered."""
    stdin = ""
    words = shlex.split(command)
    if words[:1] == ["printf"]:
        assert words[2] == "|", f"pipe printf's text into rummykit: {command}"
        stdin = words[1].encode().decode("unicode_escape")
        words = words[3:]
    assert words[:1] == ["rummykit"] and words[1:2] and words[1] in RUNNABLE, (
        f"a console block shows only rummykit {'/'.join(sorted(RUNNABLE))} sessions "
        f"(show other commands in a bash block): {command}"
    )
    environment = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    finished = subprocess.run(
        [sys.executable, "-m", "rummykit", *words[1:]],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=300,
        check=False,
    )
    return finished.stdout + finished.stderr


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_console_sessions_print_what_is_shown(page: Path) -> None:
    sessions = console_sessions(page.read_text(encoding="utf-8"))
    if not sessions:
        return
    checker = doctest.OutputChecker()
    for command, expected in sessions:
        got = _run_console(command)
        assert checker.check_output(expected.strip() + "\n", got.strip() + "\n", FLAGS), (
            f"{page.name}: $ {command}\n--- shown:\n{expected}\n--- printed:\n{got}"
        )


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for length in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:length]))
        except ImportError:
            continue
        try:
            for part in parts[length:]:
                found = getattr(found, part)
        except AttributeError:
            return False
        return True
    return False


# The packaged rules pages (src/rummykit/rules) keep their own checks
# (tests/test_rules_pages.py); the names below are checked in the README and the docs.
NAMED_PAGES = [page for page in PAGES if "src" not in page.relative_to(ROOT).parts]


@pytest.mark.parametrize(
    "page", NAMED_PAGES, ids=[str(page.relative_to(ROOT)) for page in NAMED_PAGES]
)
def test_names_in_code_resolve(page: Path) -> None:
    names = set(CODE_NAME.findall(page.read_text(encoding="utf-8"))) - NOT_NAMES
    if any(name.startswith("rummykit.rl.") for name in names):
        pytest.importorskip("pettingzoo")
    unresolved = sorted(name for name in names if not _resolves(name))
    assert not unresolved, f"{page.name} names what does not exist: {unresolved}"


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_relative_links_lead_to_files(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert OUTSIDE not in text, f"{page.name} refers to a folder outside the repository"
    for match in LINK.finditer(text):
        target = match[1] or match[2]
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{page.name} links outside the repository: {target}"
        assert path.exists(), f"{page.name} links to a missing file: {target}"


def test_every_page_is_in_the_site() -> None:
    """Each page under docs/ is in the navigation (mkdocs only warns about orphans)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = re.search(r"^nav:\n((?:[ #].*\n|\n)*)", config, re.M)
    assert nav is not None, "mkdocs.yml has no nav"
    listed = set(re.findall(r"([\w/.-]+\.md)\s*$", nav[1], re.M))
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert pages - listed == set(), "pages missing from mkdocs.yml's nav"
    assert listed - pages == set(), "mkdocs.yml lists pages that do not exist"
