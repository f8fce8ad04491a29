"""The layers: every import of the pipeline points down (or across, within a layer, without a loop).

    core ← reading ← corpus ← outputs ← publish ← cli (and the tools beside it)

Read from the source with ast, imports inside functions included, so a loop cannot hide in a
lazy import. docs/architecture.md explains the layers.
"""
import ast
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "pipeline"
LAYERS = ("core", "reading", "corpus", "outputs", "publish", "cli")
# Modules at the top of the package belong to the command line and the tools around it.
TOP = "cli"


def module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def layer(module):
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS[:-1]:
        return LAYERS.index(parts[1])
    return LAYERS.index(TOP)


def imports(module):
    """The pipeline modules `module` imports (a name imported from a package counts as its
    submodule when there is one), each with the line of the import."""
    path = MODULES[module]
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names if a.name.startswith("pipeline")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").startswith("pipeline"):
                target = node.module
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((sub if sub in MODULES else target, node.lineno))
    return [(t, line) for t, line in found if t in MODULES and t != module]


def test_every_module_is_in_a_layer():
    assert {m.split(".")[1] for m in MODULES if m.count(".") >= 1 and MODULES[m].parent != PACKAGE} \
        <= set(LAYERS[:-1]) | {"bench"}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module):
    upward = [f"{module} line {line} imports {target} ({LAYERS[layer(target)]} is above {LAYERS[layer(module)]})"
              for target, line in imports(module) if layer(target) > layer(module)]
    assert not upward, "\n".join(upward)


def test_no_import_loops():
    graph = {m: {t for t, _ in imports(m)} for m in MODULES}
    # A package's __init__ may import its own submodules; a submodule importing its package back
    # is a loop like any other.
    state, loops = {}, []

    def visit(m, stack):
        state[m] = "open"
        for t in sorted(graph[m]):
            if state.get(t) == "open":
                loops.append(" -> ".join(stack[stack.index(t):] + [t]))
            elif t not in state:
                visit(t, stack + [t])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not loops, "import loops:\n" + "\n".join(loops)


def test_a_build_with_nothing_to_do_loads_no_stage(tmp_path):
    """`lawbook build` that finds the build up to date reads the stamp and the marker only: none of
    lxml, jinja2, networkx, typst or the pipeline's stages is imported (start-up is most of its cost)."""
    import subprocess
    import sys

    out = tmp_path / "build"
    code = ("import sys; from pipeline import cli; "
            f"rc = cli.main(['build', '--sources', {str(ROOT / 'sources')!r}, '--out', {str(out)!r}, '--no-pdf']); "
            "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in "
            "('lxml', 'jinja2', 'networkx', 'typst', 'http', 'dataclasses', 'inspect') or m.startswith('pipeline.')))")
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert "is up to date" in again.stdout
    assert again.stdout.splitlines()[-1] == ("0 ['pipeline.cli', 'pipeline.core', 'pipeline.core.errors', "
                                             "'pipeline.core.options', 'pipeline.publish', 'pipeline.publish.cache', "
                                             "'pipeline.publish.outdir', 'pipeline.publish.outdir.ledger', "
                                             "'pipeline.publish.outdir.marker', 'pipeline.publish.outdir.removal', "
                                             "'pipeline.publish.outdir.target']")


# Modules of data, not code: a language's words (the profile's phrases, one per line).
LONG_DATA = {"pipeline/core/lang/nl/words.py", "pipeline/core/lang/fr/words.py", "pipeline/core/lang/en/words.py"}


def test_no_module_outside_the_reading_layer_is_over_600_lines():
    """One job per module: a module past 600 lines holds several (docs/architecture.md). The reading layer is
    rebuilt by its own issue and is held to 800."""
    over = {}
    for path in sorted((ROOT / "pipeline").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        limit = 800 if name.startswith("pipeline/reading/") else 600
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit and name not in LONG_DATA:
            over[name] = lines
    assert {name: n for name, n in over.items() if not name.startswith("pipeline/reading/")} == {}
