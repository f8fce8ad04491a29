"""One place each: what the code promises to do in one place is done there and nowhere else.

- Every node ID is split or joined through pipeline/core/ids.py (NodeId and its functions): no
  f-string joins an edition and a citation with "/", no ID is cut with split("/") or rsplit("/"), and
  no module keeps its own copy of ids.article_of.
- No module calls another module's private function (a name with a leading underscore): what two
  modules share is public, named and documented in the module that owns it.
"""
import ast
import re
from conftest import ROOT

PIPELINE = ROOT / "pipeline"

# -- every ID made and cut by ids.py ------------------------------------------------------------------
HAND_MADE_ID = {
    "an edition joined to what follows by '/'": re.compile(r"\{[^{}]*\bed(?:ition)?\b[^{}]*\}/\{"),
    "a string cut at '/'": re.compile(r"""\.r?(?:split|partition)\(\s*["']/["']"""),
    "a copy of ids.article_of": re.compile(r"\bdef\s+_?article_id\b"),
}
# What looks like a hand-made ID and is not one: (file, the text on the line) -> why.
NOT_IDS = {
    ("pipeline/serve.py", '.split("/")'): "a URL's path cut into its folders to find the file it names",
    ("pipeline/build/outdir.py", 'rel.split("/", 1)[0]'): "a file's path in the output folder: its first folder",
    ("pipeline/outputs/html.py", 'f"{root}{node.edition}/{node.article}.html"'):
        "an article page's URL: the edition's folder of the site and the page's file",
    ("pipeline/outputs/html.py", 'f"../{other.edition}/{other.file}"'): "a page's URL in another edition's folder",
    ("pipeline/outputs/html.py", 'f"{ed}/{page.file}"'): "a page's path below html/",
    ("pipeline/outputs/html.py", 'f"../{edition}/{cite}.html"'): "an article page's URL",
    ("pipeline/outputs/html.py", 'f"{edition}/{article.file}"'): "a page's path below html/",
}


def hand_made_ids(text: str, name: str = "made_up.py") -> list[str]:
    """"name:line: what" for each line of `text` that makes or cuts an ID by hand, less NOT_IDS."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if any(file == name and snippet in line for file, snippet in NOT_IDS):
            continue
        found += [f"{name}:{number}: {what}: {line.strip()}" for what, pattern in HAND_MADE_ID.items()
                  if pattern.search(line)]
    return found


def test_the_finder_sees_ids_made_and_cut_by_hand():
    text = ('node = f"{edition}/{cite}"\n'
            'where = f"{reading.edition}/{cite}"\n'
            'slug = node_id.rsplit("/", 1)[1]\n'
            'edition, rest = node_id.split("/")\n'
            'def _article_id(node_id):\n'
            'node = ids.join(edition, cite)\n'
            'label = f"{edition}-{cite}"\n')
    assert [f.split(": ", 1)[0] for f in hand_made_ids(text)] == \
        ["made_up.py:1", "made_up.py:2", "made_up.py:3", "made_up.py:4", "made_up.py:5"]


def test_every_id_is_made_and_cut_by_ids():
    found = [hit for path in sorted(PIPELINE.rglob("*.py")) if path.name != "ids.py"
             for hit in hand_made_ids(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "IDs made or cut by hand (use NodeId or the functions of pipeline/core/ids.py):\n" + \
        "\n".join(found)


def test_every_exception_of_the_id_finder_is_still_needed():
    for (file, snippet), why in NOT_IDS.items():
        assert snippet in (ROOT / file).read_text(), f"{file} no longer has {snippet!r} ({why}): drop it from NOT_IDS"


def _project_modules(tree: ast.Module) -> set[str]:
    """The names under which `tree` binds modules of the project: relative imports
    ("from . import decode as read", "from .formats import printed") and "pipeline.…" ones."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("pipeline")):
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names if a.name.startswith("pipeline")}
    return names


def private_uses(source: str) -> list[str]:
    """"module._name" for every private name of a project module used in `source`, and
    "from … import _name" for every private name imported from one."""
    tree = ast.parse(source)
    modules = _project_modules(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("pipeline")):
            found += [f"from {'.' * node.level}{node.module or ''} import {a.name}" for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and node.attr.startswith("_") and not node.attr.startswith("__"):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_the_finder_sees_a_private_call_through_an_import_and_not_one_of_a_library():
    source = ("import os\nfrom . import decode as read\nfrom ..build import outdir\nfrom .formats import _helper\n"
              "read._line_of(b'', 0)\nopen('x', opener=outdir._no_follow)\nos._exit(0)\nread.line_of(b'', 0)\n")
    assert sorted(private_uses(source)) == ["from .formats import _helper", "outdir._no_follow", "read._line_of"]


def test_no_module_calls_another_modules_private_function():
    found = {f"{path.relative_to(ROOT)}: {use}"
             for path in sorted(PIPELINE.rglob("*.py")) for use in private_uses(path.read_text())}
    assert not found, "private names used from another module (make them public where they are shared):\n" + \
        "\n".join(sorted(found))

